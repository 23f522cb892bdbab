// axe-core on the landing page in both themes (issue 3: zero violations),
// at desktop and phone widths, and with the newsletter's error banner open.
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { waitForHydration } from "./helpers";

/** axe's findings; `rules` limits the run to those rules. */
async function violations(page: Page, rules?: string[]) {
  const builder = new AxeBuilder({ page });
  if (rules) builder.withRules(rules);
  const results = await builder.analyze();
  return results.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(" ")) }));
}

// One load per width: every rule in the light theme, then the colour rules
// (what a theme changes) after the system theme turns dark, which the page
// follows. Loading dark from the start is theme.spec.ts's.
for (const width of [1280, 360]) {
  test(`/ has no axe violations in either theme (${width}px)`, async ({ page }) => {
    // Two axe runs over the longest page: about 20 s on a busy machine.
    test.setTimeout(60_000);
    await page.setViewportSize({ width, height: 900 });
    await page.emulateMedia({ reducedMotion: "reduce", colorScheme: "light" });
    await page.goto("/");
    await waitForHydration(page);
    await expect(page.locator("html")).not.toHaveClass(/\bdark\b/);
    expect(await violations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: "dark" });
    await expect(page.locator("html")).toHaveClass(/\bdark\b/);
    expect(await violations(page, ["color-contrast", "link-in-text-block"])).toEqual([]);
  });
}

for (const theme of ["light", "dark"] as const) {
  test(`the newsletter banners have no axe violations (${theme})`, async ({ page }) => {
    test.setTimeout(60_000);
    await page.emulateMedia({ reducedMotion: "reduce", colorScheme: theme });
    await page.addInitScript((t) => localStorage.setItem("color-schema", t), theme);
    await page.goto("/?newsletter=error&reason=invalid");
    await waitForHydration(page);
    await expect(page.locator("#newsletter [role=alert]")).toBeVisible();
    expect(await violations(page)).toEqual([]);
  });
}
