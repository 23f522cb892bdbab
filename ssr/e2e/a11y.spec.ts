// axe-core on the landing page in both themes (zero violations),
// at desktop and phone widths, and with the newsletter's error banner open.
import { expect, test } from "@playwright/test";
import { axeViolations, COLOUR_RULES, waitForHydration } from "./helpers";

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
    expect(await axeViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: "dark" });
    await expect(page.locator("html")).toHaveClass(/\bdark\b/);
    expect(await axeViolations(page, COLOUR_RULES)).toEqual([]);
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
    expect(await axeViolations(page)).toEqual([]);
  });
}
