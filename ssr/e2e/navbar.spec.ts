import { expect, test } from "@playwright/test";
import { examplePath, waitForHydration } from "./helpers";

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the menu opens and navigates with the keyboard, then closes", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    const nav = page.getByRole("navigation", { name: "Main navigation" });
    const menu = nav.locator("details");
    const pricing = menu.getByRole("link", { name: "Pricing" });
    await expect(pricing).toBeHidden();

    await menu.locator("summary").focus();
    await page.keyboard.press("Enter");
    await expect(menu).toHaveAttribute("open", "");
    await expect(pricing).toBeVisible();

    await pricing.focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL("/old-pricing");
    await expect(menu).not.toHaveAttribute("open", "");
  });

  test("Escape closes the menu and returns focus to its button", async ({ page }) => {
    await page.goto("/contact-us");
    await waitForHydration(page);
    const menu = page.getByRole("navigation", { name: "Main navigation" }).locator("details");
    await menu.locator("summary").click();
    await expect(menu).toHaveAttribute("open", "");
    await menu.getByRole("link", { name: "Blog" }).focus();
    await page.keyboard.press("Escape");
    await expect(menu).not.toHaveAttribute("open", "");
    await expect(menu.locator("summary")).toBeFocused();
  });
});

// Escape closes the open menu wherever the focus is, and Tab
// and Shift+Tab stay inside it while it is open (the page behind is covered).
test.describe("the open phone menu keeps the keyboard", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("Escape closes it with the focus outside it", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    const menu = page.getByRole("navigation", { name: "Main navigation" }).locator("details");
    await menu.locator("summary").click();
    await expect(menu).toHaveAttribute("open", "");
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press("Escape");
    await expect(menu).not.toHaveAttribute("open", "");
    await expect(menu.locator("summary")).toBeFocused();
  });

  test("Tab and Shift+Tab never leave it", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    const menu = page.getByRole("navigation", { name: "Main navigation" }).locator("details");
    await menu.locator("summary").focus();
    await page.keyboard.press("Enter");
    await expect(menu).toHaveAttribute("open", "");
    const inside = () => menu.evaluate((el) => el.contains(document.activeElement));
    const stops = await menu.locator("a[href], button").count();
    for (let i = 0; i < stops + 3; i++) {
      await page.keyboard.press("Tab");
      expect(await inside(), `Tab ${i + 1}`).toBe(true);
    }
    for (let i = 0; i < stops + 3; i++) {
      await page.keyboard.press("Shift+Tab");
      expect(await inside(), `Shift+Tab ${i + 1}`).toBe(true);
    }
  });
});

test("a tap outside the open phone menu closes it", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/");
  await waitForHydration(page);
  const menu = page.getByRole("navigation", { name: "Main navigation" }).locator("details");
  await menu.locator("summary").click();
  await expect(menu).toHaveAttribute("open", "");
  await page.mouse.click(20, 800); // below the menu panel, on the page
  await expect(menu).not.toHaveAttribute("open", "");
});

for (const path of ["/help", "/help-centre", `/help/category/article/${examplePath("/help/category/article/:slug").split("/").pop()}`]) {
  test(`'Help' is marked as the current page on ${path}`, async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(path);
    const nav = page.getByRole("navigation", { name: "Main navigation" });
    await expect(nav.getByRole("link", { name: "Help" }).first()).toHaveAttribute("aria-current", "page");
    await expect(nav.locator("[aria-current=page]")).toHaveCount(2); // the bar's link and the phone menu's
  });
}

test("/pricing is a permanent redirect to the pricing page", async ({ request, page }) => {
  const response = await request.get("/pricing", { maxRedirects: 0 });
  expect(response.status()).toBe(301);
  expect(response.headers()["location"]).toBe("/old-pricing");
  await page.goto("/pricing");
  await expect(page).toHaveURL(/\/old-pricing$/);
});

test("the minimal layout shows only the brand and the theme switcher", async ({ page }) => {
  await page.goto("/login");
  const nav = page.getByRole("navigation", { name: "Main navigation" });
  await expect(nav.getByRole("link")).toHaveCount(1);
  await expect(nav.getByRole("link", { name: "Omnibus" })).toHaveAttribute("href", "/");
  await expect(nav.getByRole("group", { name: "Colour theme" })).toBeVisible();
});

test("the contact pages have a dark navigation bar on a light page", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto("/contact-us");
  const bar = page.locator("header[data-nav]");
  await expect(bar).toHaveAttribute("data-nav", "inverted");
  // Relative luminance 0..255 of an element's background (Tailwind 4 colours are oklch: let a canvas convert).
  const luminance = (selector: string) =>
    page.evaluate((sel) => {
      const ctx = document.createElement("canvas").getContext("2d")!;
      ctx.fillStyle = getComputedStyle(document.querySelector(sel)!).backgroundColor;
      ctx.fillRect(0, 0, 1, 1);
      const [r, g, b] = ctx.getImageData(0, 0, 1, 1).data;
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    }, selector);
  expect(await luminance("header[data-nav]")).toBeLessThan(60);
  expect(await luminance("body")).toBeGreaterThan(200);
});
