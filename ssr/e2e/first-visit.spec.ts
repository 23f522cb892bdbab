// What a first visit of / moves before the visitor does anything: on a
// phone's screen (Lighthouse's mobile run: 412 × 823), no code of sign-up,
// sign-in, Google or the service worker, no route discovery request
// (/__manifest), no hydration and no full stylesheet (the page hydrates at
// the visitor's first sign), one favicon and no install icon, no
// picture below the first screen, and all of it within the byte budget of
// perf-budget.json (firstVisit). After a first interaction the pictures and
// the installable app's manifest follow, and without JavaScript every
// picture is there as before.
import { expect, test, type Page, type Request } from "@playwright/test";
import budget from "../perf-budget.json" with { type: "json" };
import { startLocalEdge, type LocalEdge } from "./local-edge";

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

/** Resolves once the page has painted and BOOT has preloaded React Router's chunks (lib/boot.ts). */
const preloaded = (page: Page, timeout?: number) =>
  page.waitForFunction(() => document.readyState === "complete" && !!document.querySelector('link[rel="modulepreload"]'), undefined, { timeout });

/** The first visit of /, once the network is quiet; no pointer, click, key, touch or scroll. */
async function firstVisit(page: Page) {
  const requests = record(page);
  await page.goto("/");
  await preloaded(page);
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
  // React Router's route discovery waits for the visitor too (lib/later-discovery.ts).
  expect(paths.filter((p) => p.startsWith("/__manifest")), "route discovery requests").toEqual([]);
  // So do hydration and the full stylesheet (lib/boot.ts): a visitor who only reads runs no
  // React and restyles nothing; the inline CSS draws the whole page. The chunks are preloaded.
  expect(paths.filter((p) => /^\/assets\/app-[^/]+\.css$/.test(p)), "the full stylesheet").toEqual([]);
  expect(paths.some((p) => /^\/assets\/entry\.client-[^/]+\.js$/.test(p)), "React Router's client, preloaded").toBe(true);
  const hydrated = await page.evaluate(() => [...document.querySelectorAll("a")].some((a) => Object.keys(a).some((key) => key.startsWith("__reactProps"))));
  expect(hydrated, "React has hydrated").toBe(false);
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

// The same first visit on a slow phone (Lighthouse's mobile run: Slow 4G, the
// CPU 4x slower), to a site with Google sign-in configured as `make run`
// configures it. The Google section below the hero is an island, so its code
// and the sign-in code it brings (google-section, google-signin, auth, api,
// form-parts) wait for the visitor; they used to load as the page hydrated,
// 4-6 s after load on such a phone. And the page asks for its routes
// (/__manifest) once, at the first tap, not as it hydrates.
test.describe("a slow phone's first visit, Google sign-in configured", () => {
  let edge: LocalEdge | undefined;
  test.beforeAll(async () => {
    test.setTimeout(180_000);
    edge = await startLocalEdge({ env: { GOOGLE_REDIRECT_ONLY: "1", LOG_LEVEL: "warn" } });
  });
  test.afterAll(() => edge?.stop());

  test("no Google or sign-in code and no route discovery before the visitor acts; the section's code and the routes come at the first tap", async ({ browser }) => {
    test.setTimeout(120_000);
    const context = await browser.newContext({ baseURL: edge!.origin, viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    // Lighthouse's mobile settings: 150 ms round trips, 1.6 Mbit/s down, 750 kbit/s up, CPU 4x slower.
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 150, downloadThroughput: (1638.4 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 });
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
    const requests = record(page);
    await page.goto("/", { timeout: 60_000 });
    await preloaded(page, 60_000);
    // The page is configured for Google: its server markup has the section (a link to the redirect flow).
    await expect(page.locator("[data-google-signin]")).toBeAttached();
    await page.waitForLoadState("networkidle", { timeout: 60_000 });
    const paths = requests.map((r) => r.path);
    const signIn = /^\/assets\/(google-section|google-signin|auth-|api-|form-parts)/;
    expect(paths.filter((p) => signIn.test(p)), "Google and sign-in code before any interaction").toEqual([]);
    // None: React Router asks for the routes of the page's links at the
    // visitor's first sign, not as the page hydrates (it used to ask 1-3 times).
    expect(paths.filter((p) => p.startsWith("/__manifest")), "route discovery requests").toEqual([]);

    // The visitor's first tap (on the page's heading): the page hydrates, the section's code follows, and the routes, once.
    const section = page.waitForRequest((r) => new URL(r.url()).pathname.startsWith("/assets/google-section"), { timeout: 60_000 });
    const routes = page.waitForRequest((r) => new URL(r.url()).pathname === "/__manifest", { timeout: 60_000 });
    await page.locator("main h1").first().tap();
    await Promise.all([section, routes]);
    await page.waitForLoadState("networkidle", { timeout: 60_000 });
    expect(requests.filter((r) => r.path.startsWith("/__manifest")).length, "route discovery requests after the tap").toBe(1);
    await context.close();
  });
});
