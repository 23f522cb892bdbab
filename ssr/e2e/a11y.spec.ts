// axe-core on the landing page in both themes (issue 3: zero violations),
// at desktop and phone widths, and with the newsletter's error banner open.
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { waitForHydration } from "./helpers";

async function violations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(" ")) }));
}

for (const theme of ["light", "dark"] as const) {
  for (const width of [1280, 360]) {
    test(`/ has no axe violations (${theme}, ${width}px)`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ reducedMotion: "reduce", colorScheme: theme });
      await page.addInitScript((t) => localStorage.setItem("color-schema", t), theme);
      await page.goto("/");
      await waitForHydration(page);
      await expect(page.locator("html")).toHaveClass(theme === "dark" ? /\bdark\b/ : /^(?!.*\bdark\b)/);
      expect(await violations(page)).toEqual([]);
    });
  }

  test(`the newsletter banners have no axe violations (${theme})`, async ({ page }) => {
    await page.emulateMedia({ reducedMotion: "reduce", colorScheme: theme });
    await page.addInitScript((t) => localStorage.setItem("color-schema", t), theme);
    await page.goto("/?newsletter=error&reason=invalid");
    await waitForHydration(page);
    await expect(page.locator("#newsletter [role=alert]")).toBeVisible();
    expect(await violations(page)).toEqual([]);
  });
}
