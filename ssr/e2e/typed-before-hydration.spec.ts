// What a visitor types (or the browser autofills) before the
// page has hydrated survives hydration, in every form: the register form no
// longer wipes a name typed in the first moments and then refuses "Please
// enter your name"; the contact form and the footer's newsletter box keep
// theirs too, and send them.
import { expect, test, type Page } from "@playwright/test";
import auth from "@omnibus/shared/content/auth.json" with { type: "json" };
import contact from "@omnibus/shared/content/contact.json" with { type: "json" };
import newsletter from "@omnibus/shared/content/newsletter.json" with { type: "json" };
import { waitForHydration, waitForIsland } from "./helpers";

/** Holds every script of the page until the returned function is called, so the typing certainly comes first. */
async function holdScripts(page: Page): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/.*\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

for (const width of [390, 1280]) {
  test(`typed into /register before hydration, kept after it (${width} px)`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    const release = await holdScripts(page);
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

  test(`typed into the contact form before hydration, kept and sent (${width} px)`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    const release = await holdScripts(page);
    await page.goto("/general-enquiry", { waitUntil: "domcontentloaded" });
    const form = page.locator("#contact-form");
    const message = "We sell hand-woven saris and want one inventory.";
    await form.getByLabel(contact.fields.name.label).fill("Lakshmi Rao");
    await form.getByLabel(contact.fields.email.label).fill("lakshmi@example.com");
    await form.locator('textarea[name="message"]').fill(message);
    release();
    await waitForHydration(page);
    await expect(form.getByLabel(contact.fields.name.label)).toHaveValue("Lakshmi Rao");
    await expect(form.getByLabel(contact.fields.email.label)).toHaveValue("lakshmi@example.com");
    await expect(form.locator('textarea[name="message"]')).toHaveValue(message);
    await form.getByRole("button", { name: contact.submitLabel }).click();
    await expect(form.getByRole("status")).toHaveText(contact.outcomes.sent);
  });

  test(`typed into the newsletter box before hydration, kept after it (${width} px)`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    const release = await holdScripts(page);
    await page.goto("/features", { waitUntil: "domcontentloaded" });
    const box = page.locator("#newsletter");
    await box.getByLabel(newsletter.label).fill("early.reader@example.com");
    release();
    await waitForHydration(page);
    await box.scrollIntoViewIfNeeded();
    await waitForIsland(box.locator("form"));
    await expect(box.getByLabel(newsletter.label)).toHaveValue("early.reader@example.com");
    await box.getByRole("button", { name: newsletter.button }).click();
    await expect(box.getByText(newsletter.messages.subscribed)).toBeVisible();
  });
}
