// One URL per page. A path that names a route in another letter
// case is sent to the route table's spelling by the edge, before anything
// renders (one rule for every route; slugs in lower case); transactional
// pages are noindex; plans and FAQ items have stable anchors.
import { expect, test } from "@playwright/test";

test.describe("one URL per page", () => {
  for (const [from, to] of [
    ["/FEATURES", "/features"],
    ["/Blog", "/blog"],
    ["/Help/Category/Article/gst-invoices", "/help/category/article/gst-invoices"],
    ["/help/category/article/GST-Invoices", "/help/category/article/gst-invoices"],
    ["/Old-Pricing", "/old-pricing"],
  ]) {
    test(`${from} is a permanent redirect to ${to}`, async ({ request, page }) => {
      const res = await request.get(from, { maxRedirects: 0 });
      expect(res.status()).toBe(301);
      expect(res.headers().location).toBe(to);
      // In the browser the address bar ends on the table's spelling, with the page's canonical link naming it.
      await page.goto(from);
      await expect(page).toHaveURL(new RegExp(`${to}$`));
      const canonical = page.locator('link[rel="canonical"]');
      await expect(canonical).toHaveAttribute("href", new RegExp(`${to}$`));
    });
  }

  test("a path no route has in any letter case is the not-found page, not a redirect", async ({ request }) => {
    const res = await request.get("/No-Such-Page", { maxRedirects: 0 });
    expect(res.status()).toBe(404);
  });

  test("transactional and sign-in pages are noindex and name no canonical URL, as the sitemap leaves them out", async ({ page }) => {
    // (Signed out, /choose-plan and /landing-page send the visitor elsewhere: the journey test checks them signed in.)
    // Sign-in pages answer no search: listing them neither in the sitemap nor in the index keeps both consistent.
    for (const path of ["/petpawlor-order-complete", "/petpawlor-order-complete?order=x", "/test-payment", "/sso-redirect", "/login", "/register", "/forgot-password"]) {
      await page.goto(path);
      await expect(page.locator('meta[name="robots"]'), path).toHaveAttribute("content", /noindex/);
      await expect(page.locator('link[rel="canonical"]'), path).toHaveCount(0);
    }
    // A marketing page stays indexable, and lets search show its preview image large.
    await page.goto("/features");
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "max-image-preview:large");
    await expect(page.locator('link[rel="canonical"]')).toHaveCount(1);
  });

  for (const js of [true, false]) {
    test(`plans and pricing questions have stable anchors (JavaScript ${js ? "on" : "off"})`, async ({ browser }) => {
      const context = await browser.newContext({ javaScriptEnabled: js, viewport: { width: 390, height: 800 } });
      const page = await context.newPage();
      await page.goto("/old-pricing#plan-growth");
      const growth = page.locator("#plan-growth");
      await expect(growth).toContainText("Growth");
      await expect(growth).toBeInViewport();
      for (const id of ["plan-starter", "plan-pro", "plan-enterprise", "faq-prices-inclusive-gst", "faq-pay-monthly"]) {
        await expect(page.locator(`#${id}`), id).toHaveCount(1);
      }
      await expect(page.locator("#faq-prices-inclusive-gst summary")).toHaveText(/inclusive of GST/);
      await context.close();
    });
  }
});
