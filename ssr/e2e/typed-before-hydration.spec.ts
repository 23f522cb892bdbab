// Issue 32.3: what a visitor types (or the browser autofills) before the
// page has hydrated survives hydration: the register form no longer wipes a
// name typed in the first moments and then refuses "Please enter your name".
import { expect, test } from "@playwright/test";
import auth from "../../shared/content/auth.json" with { type: "json" };
import { waitForHydration } from "./helpers";

for (const width of [390, 1280]) {
  test(`typed into /register before hydration, kept after it (${width} px)`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    // Hold the page's scripts back, so the typing certainly comes first.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/.*\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto("/register", { waitUntil: "domcontentloaded" });
    await page.getByLabel(auth.register.name).fill("Jane Doe");
    await page.getByLabel(auth.register.email).fill("jane.early@example.com");
    release();
    await waitForHydration(page);
    await expect(page.getByLabel(auth.register.name)).toHaveValue("Jane Doe");
    await expect(page.getByLabel(auth.register.email)).toHaveValue("jane.early@example.com");
    // The form's state has them too: no "Please enter your name" on submit.
    await page.getByRole("button", { name: auth.register.submit }).click();
    await expect(page.getByText(auth.messages.nameRequired)).toHaveCount(0);
    await expect(page.getByLabel(auth.register.name)).toHaveValue("Jane Doe");
  });
}
