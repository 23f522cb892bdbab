// The template demo routes: server-rendered, noindex, out of the
// sitemap, no console errors, no axe violations and no sideways scrolling at
// 360 px, in both themes; the interactive blocks work with the keyboard.
import { expect, test } from "@playwright/test";
import { axeViolations, COLOUR_RULES, collectErrors, routes, waitForHydration } from "./helpers";

const demos = routes.filter((r) => r.path === "/blocks" || r.path.startsWith("/blocks/") || /^\/blog\/posts?(-\d+)?$/.test(r.path));

test("the demo routes are the spec's 48, server-rendered with noindex and no canonical, and out of the sitemap", async ({ request }) => {
  expect(demos.length).toBe(1 + 28 + 9 + 9 + 2);
  const sitemap = await (await request.get("/sitemap.xml")).text();
  for (const r of demos) {
    const html = await (await request.get(r.path)).text();
    expect(html, r.path).toContain('<meta name="robots" content="noindex"/>');
    expect(html, r.path).not.toContain('rel="canonical"');
    // Server-rendered: the examples (or articles, or the index's thumbnails) are in the document itself.
    expect(/data-preview|data-thumbnail|href="\/blog\/article\/|<article/.test(html), `${r.path} is rendered on the server`).toBe(true);
    expect(sitemap, r.path).not.toContain(`${r.path}<`);
  }
});

// The dark pass re-runs only axe's colour rules, on the same hydrated page
// switched to the dark system theme (the site follows the system's change),
// not a second load. theme.spec.ts covers a page loaded dark (the inline
// script before the first paint).

for (const r of demos) {
  test(`${r.path}: no console errors, no axe violations, no overflow at 360 px, in both themes`, async ({ page }) => {
    // Slow on purpose: two axe runs (each injects axe anew) over a page of
    // examples; 10-20 s on a quiet machine, several times that under load.
    test.setTimeout(r.path === "/blocks" ? 240_000 : 120_000);
    await page.setViewportSize({ width: 360, height: 800 });
    await page.emulateMedia({ reducedMotion: "reduce", colorScheme: "light" });
    const errors = collectErrors(page);
    await page.goto(r.path);
    await waitForHydration(page);
    const problems: unknown[] = [];
    for (const theme of ["light", "dark"] as const) {
      if (theme === "dark") await page.emulateMedia({ colorScheme: "dark" });
      await expect(page.locator("html")).toHaveClass(theme === "dark" ? /\bdark\b/ : /^(?!.*\bdark\b)/);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      if (overflow > 0) problems.push({ theme, overflow });
      const found = await axeViolations(page, theme === "dark" ? COLOUR_RULES : undefined);
      if (found.length) problems.push({ theme, violations: found });
    }
    if (errors.length) problems.push({ errors });
    expect(problems).toEqual([]);
  });
}

test("a preview can be switched to the other theme, and its content copied", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto("/blocks/buttons");
  await waitForHydration(page);
  const example = page.locator("[data-example]").first();
  await example.getByRole("button", { name: "Dark" }).click();
  await expect(example.locator("[data-preview]")).toHaveClass(/\bdark\b/);
  const button = example.getByRole("link", { name: "Get Started" });
  // The primary button takes its dark-theme colour inside the dark preview.
  const dark = await button.evaluate((el) => getComputedStyle(el).backgroundColor);
  await example.getByRole("button", { name: "Dark" }).click();
  expect(await button.evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe(dark);
  await example.getByRole("button", { name: /Copy the content/ }).click();
  await expect(example.getByRole("button", { name: /Copy the content/ })).toHaveText("Copied");
  expect(JSON.parse(await page.evaluate(() => navigator.clipboard.readText()))).toMatchObject({ label: "Get Started", to: "/register" });
});

test("the modal opens from the keyboard, traps focus, closes on Escape and returns focus", async ({ page }) => {
  await page.goto("/blocks/modals");
  await waitForHydration(page);
  const trigger = page.getByRole("button", { name: "Book a demo" });
  await trigger.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "See Omnibus in 30 minutes" });
  await expect(dialog).toBeVisible();
  await expect(dialog.locator(":focus")).toHaveCount(1);
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(trigger).toBeFocused();
});

test("the popover opens and closes without JavaScript", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/blocks/popover");
  await page.getByRole("button", { name: "What is one-click shipping?" }).click();
  await expect(page.getByRole("dialog", { name: "One-click shipping" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog", { name: "One-click shipping" })).toBeHidden();
  await context.close();
});

test("the tabs follow the arrow keys", async ({ page }) => {
  await page.goto("/blocks/navtabs");
  await waitForHydration(page);
  await page.getByRole("tab", { name: "Website" }).focus();
  await page.keyboard.press("ArrowRight");
  await expect(page.getByRole("tab", { name: "Point of sale" })).toBeFocused();
  await expect(page.getByRole("tab", { name: "Point of sale" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("tabpanel")).toContainText("Sell in person");
  await page.keyboard.press("End");
  await expect(page.getByRole("tab", { name: "Marketplace" })).toBeFocused();
});

test("without JavaScript the catalogue shows its content as text and every tab panel", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/blocks/navtabs");
  await expect(page.locator("[data-preview]").getByText("Your store as an app your customers install.")).toBeVisible();
  await expect(page.locator("pre").first()).toContainText('"label": "Sales channels"');
  await context.close();
});
