// The copy a first visit reads. One spelling of "email", the
// uptime stated without "claimed", help categories by name, the contact
// page's email address and phone number as links, and a newsletter refusal
// that says what is wrong with the address; the footer's About is a page
// of its own.
import { expect, test } from "@playwright/test";
import landing from "@omnibus/shared/content/landing.json" with { type: "json" };
import pages from "@omnibus/shared/content/pages.json" with { type: "json" };
import newsletter from "@omnibus/shared/content/newsletter.json" with { type: "json" };
import categories from "@omnibus/shared/content/help/categories.json" with { type: "json" };
import { waitForHydration } from "./helpers";

for (const js of [true, false]) {
  test.describe(`copy, JavaScript ${js ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled: js });

    test("no page spells it 'e-mail'", async ({ page }) => {
      for (const path of ["/", "/contact-us", "/privacy-policy", "/terms-of-use", "/help/category/article/create-your-store", "/petpawlor-order-complete"]) {
        await page.goto(path);
        expect(await page.locator("body").innerText(), path).not.toMatch(/e-mail/i);
      }
    });

    test("/features states the uptime without 'claimed'", async ({ page }) => {
      await page.goto("/features#uptime");
      await expect(page.locator("#uptime")).toContainText("uptime above 99.99%");
      await expect(page.locator("#uptime")).not.toContainText("claimed");
    });

    test("help cards name their category, not its slug", async ({ page }) => {
      await page.goto("/help");
      const text = await page.locator("main").innerText();
      for (const c of categories.categories) {
        expect(text, c.slug).not.toContain(c.slug);
      }
      await page.goto("/help/category/article/gst-invoices");
      await expect(page.locator("main")).not.toContainText(/[a-z]+-and-[a-z]+/);
    });

    test("the contact page's email address and phone number are links", async ({ page }) => {
      for (const width of [390, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto("/contact-us");
        const alt = page.locator("[data-contact-alternative]");
        await expect(alt.locator('a[href^="mailto:"]')).toHaveCount(1);
        await expect(alt.locator('a[href^="tel:+"]')).toHaveCount(1);
        const mail = (await alt.locator('a[href^="mailto:"]').textContent()) ?? "";
        expect(await alt.locator('a[href^="mailto:"]').getAttribute("href")).toBe(`mailto:${mail}`);
      }
    });
  });
}

test("footer 'About' opens the company page, not the home page's 'Why Omnibus' section", async ({ page }) => {
  await page.goto("/features");
  const about = page.getByRole("contentinfo").getByRole("link", { name: "About", exact: true });
  await expect(about).toHaveAttribute("href", "/about");
  await about.click();
  await expect(page).toHaveURL(/\/about$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(pages.pages.about.heading);
  await expect(page.locator("main")).not.toContainText(landing.reasons.title);
});

test("the newsletter says what is wrong with an address that is not one", async ({ page }) => {
  await page.goto("/features");
  await waitForHydration(page);
  const box = page.locator("#newsletter");
  await box.scrollIntoViewIfNeeded();
  await box.getByLabel(newsletter.label).fill("not-an-email");
  await box.getByRole("button", { name: newsletter.button }).click();
  await expect(box.getByRole("alert")).toContainText("valid email address");
  expect(newsletter.messages.invalid).not.toBe("Please enter a valid value");
});
