// What a first visit of / moves before the visitor does anything (issue
// 31.2): on a phone's screen (Lighthouse's mobile run: 412 × 823), no code
// of sign-up, sign-in, Google or the service worker, at most one route
// discovery request (/__manifest), one favicon and no install icon, no
// picture below the first screen, and all of it within the byte budget of
// perf-budget.json (firstVisit). After a first interaction the pictures and
// the installable app's manifest follow, and without JavaScript every
// picture is there as before.
import { expect, test, type Page, type Request } from "@playwright/test";
import budget from "../perf-budget.json" with { type: "json" };
import { waitForHydration } from "./helpers";

test.use({ viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true });

/** Every request of the page from now on, with its bytes on the wire once finished (body and head). */
function record(page: Page) {
  const requests: { path: string; request: Request; bytes: number; done: boolean }[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.protocol === "data:") return; // nothing on the wire
    requests.push({ path: url.pathname + url.search, request, bytes: 0, done: false });
  });
  page.on("requestfailed", (request) => {
    const entry = requests.find((r) => r.request === request);
    if (entry) entry.done = true;
  });
  page.on("requestfinished", async (request) => {
    const entry = requests.find((r) => r.request === request);
    const sizes = await request.sizes().catch(() => null);
    if (entry && sizes) entry.bytes = sizes.responseBodySize + sizes.responseHeadersSize;
    if (entry) entry.done = true;
  });
  return requests;
}

/** The first visit of /, hydrated, once the network is quiet; no click, key, touch or scroll. */
async function firstVisit(page: Page) {
  const requests = record(page);
  await page.goto("/");
  await waitForHydration(page);
  await page.waitForLoadState("networkidle");
  return requests;
}

test("a first visit of / fetches only what its first screen needs, within the byte budget", async ({ page }) => {
  const requests = await firstVisit(page);
  const paths = requests.map((r) => r.path);

  // Sign-up, sign-in, Google, the API client, the forms and the service
  // worker's registration: none of it runs before the visitor acts.
  const notYet = /^\/assets\/(register|login|google|auth-|api-|form-parts|sign-out|validation|pwa-box)|^\/sw\.js/;
  expect(paths.filter((p) => notYet.test(p))).toEqual([]);
  expect(paths.filter((p) => p.startsWith("/__manifest")).length, "route discovery requests").toBeLessThanOrEqual(1);
  // One favicon, the header's brand mark; no install icon, no web app manifest.
  // (The browser asks for it twice, as picture and as tab icon; the second comes from its cache.)
  expect([...new Set(paths.filter((p) => /^\/favicon\./.test(p)))]).toEqual(["/favicon.webp"]);
  expect(paths.filter((p) => p.startsWith("/icons/") || p.startsWith("/manifest.webmanifest"))).toEqual([]);
  // No picture below the first screen (the hero's screenshot and the customer logos start below it on a phone).
  let below = await page.evaluate(() =>
    [...document.querySelectorAll("img")].filter((img) => img.getBoundingClientRect().top >= innerHeight).map((img) => new URL(img.src, location.href).pathname),
  );
  // (The footer's brand mark is the header's, already fetched: pictures of their own only.)
  below = below.filter((p) => p.startsWith("/images/"));
  expect(below.length, "pictures below the first screen").toBeGreaterThan(0);
  expect(paths.filter((p) => below.includes(p))).toEqual([]);

  await expect.poll(() => requests.every((r) => r.done)).toBe(true);
  const total = requests.reduce((sum, r) => sum + r.bytes, 0);
  expect(total, requests.map((r) => `${r.path.slice(0, 60)} ${r.bytes}`).join("\n")).toBeLessThanOrEqual(budget.firstVisit.home.bytes);
});

test("after the first interaction the pictures come as they near, and the manifest is linked", async ({ page }) => {
  const requests = await firstVisit(page);
  const logo = page.locator("[data-logo-strip] img").first();
  await logo.scrollIntoViewIfNeeded();
  await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0 && img.currentSrc.endsWith(".webp"))).toBe(true);
  await page.locator("header a[href='/']").first().dispatchEvent("pointerdown");
  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute("href", "/manifest.webmanifest");
  expect(requests.some((r) => r.path.startsWith("/images/logos/"))).toBe(true);
});

test("without JavaScript every picture loads as the browser decides, as before", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 412, height: 823 }, baseURL });
  const page = await context.newPage();
  await page.goto("/");
  const logo = page.locator("[data-logo-strip] img").first();
  await logo.scrollIntoViewIfNeeded();
  await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0 && img.currentSrc.endsWith(".webp"))).toBe(true);
  await context.close();
});
