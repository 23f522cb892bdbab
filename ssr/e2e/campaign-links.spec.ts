// Campaign short links and the staff page, against the real edge
// and renderer. Each short link of shared/content/campaign-links.json must
// lead to a page that renders its #anchor; the staff page shows the visits
// (a short link, pages with and without JavaScript, a crawler) with its
// chart drawn on the server, JavaScript off.
import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { notFound, signUpHeaders } from "./helpers";
import { grantStaff, studioByTOTP } from "./staff";

interface CampaignLink {
  name: string;
  target: string;
  utm: { source: string; medium: string; campaign: string };
}
const { links } = JSON.parse(readFileSync(new URL("../../shared/content/campaign-links.json", import.meta.url), "utf8")) as {
  links: CampaignLink[];
};

for (const link of links) {
  test(`/go/${link.name} leads to ${link.target}, which renders its anchor`, async ({ request, browser }) => {
    const res = await request.get(`/go/${link.name}`, { maxRedirects: 0 });
    expect(res.status()).toBe(302);
    expect(res.headers()["location"]).toBe(link.target);
    expect(res.headers()["location"]).not.toContain("utm_");
    const [pathname, anchor] = link.target.split("#");
    // The target as the server sends it (no script): an element with that id,
    // not just the text id="…" somewhere (data-feature-grid="true" holds id="true").
    const ctx = await browser.newContext({ javaScriptEnabled: false });
    const page = await ctx.newPage();
    const doc = await page.goto(pathname);
    expect(doc?.status(), `${pathname} is a page`).toBe(200);
    if (anchor) await expect(page.locator(`[id="${anchor}"]`), `${pathname} renders an element with id="${anchor}"`).toHaveCount(1);
    await ctx.close();
  });
}

test("a short link leaves a clean address in the browser; an unknown one is the 404 page", async ({ page }) => {
  const link = links.find((l) => l.target.includes("#"))!;
  await page.goto(`/go/${link.name}`);
  expect(new URL(page.url()).pathname + new URL(page.url()).hash).toBe(link.target);
  expect(page.url()).not.toContain("utm_");
  const res = await page.goto("/go/no-such-link");
  expect(res?.status()).toBe(404);
  await expect(page).toHaveTitle(notFound.title);
});

test("staff see the visits on a chart drawn without JavaScript; others get the 404 page", async ({ browser, baseURL }) => {
  // A browser's user agent: isbot (and so the counter) takes HeadlessChrome for a bot.
  const userAgent = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";
  const ctx = await browser.newContext({ javaScriptEnabled: false, userAgent });
  const page = await ctx.newPage();
  // Visits: a short link, two pages without JavaScript, a crawler.
  const link = links[1];
  await page.goto(`/go/${link.name}`);
  await page.goto("/features");
  const googlebot = await browser.newContext({ userAgent: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" });
  await (await googlebot.newPage()).goto("/terms-of-use");
  await googlebot.close();

  expect((await page.goto("/staff/insights"))?.status()).toBe(404);
  const email = `staff-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  const reg = await ctx.request.post("/api/v1/oaccount/register", {
    headers: signUpHeaders(baseURL!),
    data: { name: "Ana Lima", email, password: "correct horse battery", storeName: `staff-${Date.now()}` },
  });
  expect(reg.status()).toBe(201);
  const res = await page.goto("/staff/insights");
  expect(res?.status(), "a signed-in account that is not staff").toBe(404);
  await expect(page).toHaveTitle(notFound.title);

  // The operator's command, on the edge's database: a viewer, who still
  // needs a second factor (TOTP here: no passkey works on 127.0.0.1).
  grantStaff(process.env.OMNIBUS_E2E_DATA_DIR!, email, "viewer", "--allow-totp");
  await studioByTOTP(ctx.request, baseURL!);
  const staff = await page.goto("/staff/insights");
  expect(staff?.status()).toBe(200);
  expect(staff?.headers()["cache-control"]).toContain("no-store");
  // The chart is HTML, one bar a day of the default 30-day range.
  await expect(page.locator("ol.bars > li")).toHaveCount(30);
  const today = page.locator("ol.bars > li").last();
  expect(Number(await today.getAttribute("data-views"))).toBeGreaterThanOrEqual(2);
  await expect(page.locator("#campaigns ~ table").first()).toContainText(link.utm.campaign);
  await expect(page.locator("#clicks ~ table").first()).toContainText(`/go/${link.name}`);
  await expect(page.locator("#pages ~ table").first()).toContainText("/features");
  await expect(page.locator("#crawlers ~ table").nth(1)).toContainText("googlebot");
  await expect(page.locator("#crawlers ~ table").nth(1)).toContainText("/terms-of-use");
  const csv = await ctx.request.get("/staff/insights/crawlers.csv");
  expect(csv.headers()["content-type"]).toContain("text/csv");
  expect(await csv.text()).toContain("googlebot,/terms-of-use,");
  await ctx.close();
});
