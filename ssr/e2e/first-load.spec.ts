// What a first-time visitor downloads: no Google sign-in code when
// Google is not configured, the footer's code only as it comes into view, no
// copy of the footer inside the document's loader data, and navigation links
// that fetch their page on intent (hover or focus), before the click.
// Sizes and requests only: timings are make lighthouse's job.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Browser, type Page } from "@playwright/test";
import navigation from "@omnibus/shared/content/navigation.json" with { type: "json" };
import site from "@omnibus/shared/content/site.json" with { type: "json" };
import { routes } from "@omnibus/shared/route-table";
import { collectErrors, waitForHydration, waitForIsland } from "./helpers";

/** Every URL the page requests from now on. */
function requests(page: Page): string[] {
  const urls: string[] = [];
  page.on("request", (request) => urls.push(new URL(request.url()).pathname));
  return urls;
}

test.use({ viewport: { width: 1280, height: 800 } });

test("/ loads no Google sign-in code when Google is not configured", async ({ page }) => {
  const urls = requests(page);
  await page.goto("/");
  await waitForHydration(page);
  await page.mouse.wheel(0, 20_000); // the whole page, islands included
  await expect(page.locator("#newsletter")).toBeVisible();
  expect(urls.filter((url) => /google|gsi/.test(url))).toEqual([]);
});

test("the footer's code loads as it comes into view, then it works like the rest of the page", async ({ page }) => {
  const errors = collectErrors(page);
  const urls = requests(page);
  await page.goto("/");
  await waitForHydration(page);
  expect(urls.filter((url) => url.includes("/assets/footer-"))).toEqual([]);

  const footerChunk = page.waitForRequest((request) => request.url().includes("/assets/footer-"));
  await page.locator("footer").scrollIntoViewIfNeeded();
  await footerChunk;
  // Hydrated: the newsletter box validates in the page instead of posting the form.
  const box = page.locator("#newsletter");
  await waitForIsland(box);
  expect(errors).toEqual([]);
});

// Before the visitor's first click or key, the sections below the first
// screen wait for their code; a history step then (a #fragment, back) changes
// the router's location at once, and React used to drop what they showed.
test("a #fragment or back before any click keeps every section, scrolls to the fragment, and sections still load as they come into view", async ({ page }) => {
  await page.setViewportSize({ width: 412, height: 823 });
  const errors = collectErrors(page);
  await page.goto("/");
  await waitForHydration(page);
  await page.evaluate(() => {
    const emptied: string[] = ((window as unknown as { emptied: string[] }).emptied = []);
    for (const el of document.querySelectorAll<HTMLElement>("[data-island]")) {
      new MutationObserver(() => {
        if (!el.textContent?.trim()) emptied.push(el.dataset.island!);
      }).observe(el, { childList: true, subtree: true });
    }
  });
  await page.goto("/#about"); // the same document: no request, no click
  await expect(page.locator("#about")).toBeInViewport();
  await page.goBack();
  await expect(page).toHaveURL("/");
  await expect(page.locator("#about")).toBeAttached();
  expect(await page.evaluate(() => (window as unknown as { emptied: string[] }).emptied)).toEqual([]);

  await page.locator("footer").scrollIntoViewIfNeeded();
  await waitForIsland(page.locator("#newsletter"));
  expect(errors).toEqual([]);
});

// Everything the page needs for its first paint is in the document (critical
// CSS inline): its scripts and the full stylesheet would only compete with it
// for a slow network, so they are requested once the first paint is on
// screen (lib/deferred-scripts.tsx).
// The first layout, and the restyle when the full stylesheet arrives, are the
// longest tasks after the first paint; the parts below the first screen stay
// out of both until the visitor scrolls towards them (theme.css).
test("the parts below the first screen are drawn only as they near the viewport, and then in full", async ({ page }) => {
  await page.setViewportSize({ width: 412, height: 823 });
  await page.goto("/");
  await waitForHydration(page);
  const drawn = (selector: string) => page.locator(selector).evaluate((el) => el.checkVisibility({ contentVisibilityAuto: true }));
  const footerLinks = 'nav[aria-label="Footer"]';
  expect(await drawn("#about")).toBe(false);
  expect(await drawn(footerLinks)).toBe(false);
  await page.locator("footer").scrollIntoViewIfNeeded();
  await expect.poll(() => drawn(footerLinks)).toBe(true);
  await expect(page.getByRole("navigation", { name: "Footer" })).toBeVisible();
});

// Chromium draws an undrawn box that holds a form field wherever it is, in the
// first frame that meets it: a footer box around the newsletter form cost a
// slow phone the style and layout of all 134 of the footer's elements at
// DOMContentLoaded, after the first paint, even at the end of a long page.
// The link lists are their own box, without the form: a phone that does not
// scroll there never lays them out. (Layout objects, once made, stay while a
// box is undrawn again, so drawing it now shows whether it was ever drawn.)
test("a phone's first visit never lays out the footer's link lists it does not show", async ({ page }) => {
  await page.setViewportSize({ width: 412, height: 823 });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Performance.enable");
  const layoutObjects = async () => {
    const { metrics } = await cdp.send("Performance.getMetrics");
    return metrics.find((m) => m.name === "LayoutObjects")!.value;
  };
  for (const path of ["/", "/help"]) {
    await page.goto(path);
    // Loaded, and two frames drawn since: every box near the screen has been decided.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    // Read before any locator touches the lists: Playwright's own look at an element lays it out.
    const before = await layoutObjects();
    // Drawn without a scroll (a scroll is a sign of the visitor, and starts hydration).
    const elements = await page.evaluate(() => {
      const nav = document.querySelector('nav[aria-label="Footer"]')!;
      (nav.closest("[data-island]") as HTMLElement).style.contentVisibility = "visible";
      return new Promise<number>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(nav.querySelectorAll("*").length))));
    });
    expect(elements).toBeGreaterThan(20);
    expect(await layoutObjects(), `${path}: layout objects made once the footer's links are drawn`).toBeGreaterThanOrEqual(before + elements);
  }
});

test("no script or stylesheet is requested before the first paint; then the page hydrates", async ({ page }) => {
  const errors = collectErrors(page);
  await page.goto("/");
  await waitForHydration(page);
  const { fcp, early, css } = await page.evaluate(() => {
    const fcp = performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? -1;
    const assets = performance
      .getEntriesByType("resource")
      .filter((e) => /\.(js|css)$/.test(new URL(e.name).pathname));
    return {
      fcp,
      early: assets.filter((e) => e.startTime < fcp).map((e) => new URL(e.name).pathname),
      css: assets.filter((e) => e.name.endsWith(".css")).length,
    };
  });
  expect(fcp).toBeGreaterThan(0);
  expect(early).toEqual([]);
  expect(css, "the full stylesheet arrives after the paint").toBe(1);
  expect(errors).toEqual([]);
});

test("a deep link to a section below the first screen paints it with the full stylesheet already applied", async ({ page }) => {
  const errors = collectErrors(page);
  await page.goto("/#about");
  await waitForHydration(page);
  const { fcp, cssEnd } = await page.evaluate(() => ({
    fcp: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? -1,
    cssEnd: (performance.getEntriesByType("resource") as PerformanceResourceTiming[]).find((e) => e.name.endsWith(".css"))?.responseEnd ?? Infinity,
  }));
  expect(fcp).toBeGreaterThan(0);
  expect(cssEnd).toBeLessThanOrEqual(fcp);
  await expect(page.locator("#about")).toBeInViewport();
  // The loader finds it in place and does not ask for it twice.
  await expect(page.locator('link[rel="stylesheet"][href^="/assets/app-"]')).toHaveCount(1);
  expect(errors).toEqual([]);
});

test("without JavaScript the full stylesheet still applies", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
  const page = await context.newPage();
  await page.goto("/");
  // The footer's layout is not in the inline critical CSS: only the full stylesheet sets it.
  await expect.poll(() => page.evaluate(() => document.styleSheets.length)).toBeGreaterThan(1);
  const sheets = await page.evaluate(() => [...document.styleSheets].map((s) => s.href ?? "inline"));
  expect(sheets.some((href) => /\/assets\/app-[^/]+\.css$/.test(href))).toBe(true);
  await context.close();
});

test("the document's loader data does not repeat the footer's copy", async ({ request }) => {
  const html = await (await request.get("/")).text();
  const data = html.slice(html.indexOf("streamController"));
  expect(html).toContain(site.tagline);
  expect(data).not.toContain(site.tagline);
});

test("a navigation link fetches its page's data and route module on hover, before any click", async ({ page }) => {
  // /blog: a page with data of its own (its loader); /features reads only shared content, so it has none to fetch.
  await page.goto("/");
  await waitForHydration(page);
  const link = page.getByRole("navigation", { name: navigation.menu.label }).getByRole("link", { name: "Blog", exact: true });
  const data = page.waitForRequest((request) => new URL(request.url()).pathname === "/blog.data");
  const code = page.waitForRequest((request) => /\/assets\/page-[^/]+\.js$/.test(new URL(request.url()).pathname));
  await link.hover();
  await Promise.all([data, code]);
  await link.click();
  await expect(page).toHaveURL(/\/blog$/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  // The page's title and description came with its route module (virtual:route-copy), not with /'s first load.
  const blog = routes.find((r) => r.id === "blog")!;
  await expect(page).toHaveTitle(blog.title);
  await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", blog.description);
});

/** Where the navigation bar is cut: after its first button. */
const inTheBar = (body: string) => body.indexOf("</button>", body.indexOf("<header")) + "</button>".length;

/**
 * A proxy in front of the site that sends the document of `path` in two parts,
 * cut where `cut` says (by default inside the navigation bar, after its first
 * button), the second when `release` is called: a slow network's gap at its
 * worst place.
 */
async function splitDocument(baseURL: string, path: string, cutAt: (body: string) => number = inTheBar) {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const server = http.createServer(async (req, res) => {
    const upstream = await fetch(baseURL + req.url, { headers: { "user-agent": req.headers["user-agent"] ?? "", accept: req.headers.accept ?? "*/*" }, redirect: "manual" });
    const headers = Object.fromEntries([...upstream.headers].filter(([name]) => !["content-encoding", "content-length", "transfer-encoding", "connection"].includes(name)));
    const body = await upstream.text();
    res.writeHead(upstream.status, headers);
    if (req.url !== path) return res.end(body);
    const cut = cutAt(body);
    expect(cut, "a cut inside the document").toBeGreaterThan(100);
    res.write(body.slice(0, cut));
    await released;
    res.end(body.slice(cut));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`, release, close: () => server.close() };
}

/**
 * Opens proxy's document (splitDocument) on a phone's screen, recording its
 * layout shifts. Once the element `partIn` names is in, it waits a moment to
 * see whether the browser paints before the rest is released.
 */
async function openInPieces(browser: Browser, proxy: Awaited<ReturnType<typeof splitDocument>>, partIn: string) {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 }, isMobile: true });
  await context.addInitScript(() => {
    const shifts: { value: number; header: string[] }[] = ((window as unknown as { __shifts: unknown[] }).__shifts = []);
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean; sources: { node?: Node }[] }[]) {
        if (entry.hadRecentInput) continue;
        const header = entry.sources.flatMap((s) => (s.node instanceof Element && s.node.closest("header") ? [s.node.outerHTML.slice(0, 80)] : []));
        shifts.push({ value: entry.value, header });
      }
    }).observe({ type: "layout-shift", buffered: true });
  });
  const page = await context.newPage();
  const loaded = page.goto(proxy.url);
  await page.waitForFunction((selector) => document.querySelector(selector), partIn);
  const paintedEarly = await page
    .waitForFunction(() => performance.getEntriesByName("first-contentful-paint").length > 0, null, { timeout: 1_000 })
    .then(() => true, () => false);
  proxy.release();
  await loaded;
  await waitForHydration(page);
  const shifts = await page.evaluate(() => (window as unknown as { __shifts: { value: number; header: string[] }[] }).__shifts);
  await context.close();
  proxy.close();
  return { paintedEarly, shifts };
}

test("a document that arrives in pieces never paints half a navigation bar, so the bar does not move", async ({ browser, baseURL }) => {
  for (const path of ["/help", "/login"]) {
    // The first part is in once the bar's first button exists.
    const { paintedEarly, shifts } = await openInPieces(browser, await splitDocument(baseURL!, path), "header button");
    expect(paintedEarly, `${path}: painted before its navigation bar had arrived`).toBe(false);
    expect(shifts.flatMap((s) => s.header), `${path}: the navigation bar moved`).toEqual([]);
  }
});

// A sign-in card painted before its submit button's label arrived grew when
// the label came (a shift seen on a busy machine). Each card ends with an
// element the page's first paint waits for (components/auth/form-parts.tsx).
test("a sign-in page that arrives in pieces is painted with its whole card, so nothing in it moves", async ({ browser, baseURL }) => {
  for (const path of ["/login", "/register"]) {
    // Cut right after the card's submit button's opening tag: a button with no label yet.
    const proxy = await splitDocument(baseURL!, path, (body) => body.indexOf(">", body.indexOf('<button type="submit"', body.indexOf("<main"))) + 1);
    const { paintedEarly, shifts } = await openInPieces(browser, proxy, 'main button[type="submit"]');
    expect(paintedEarly, `${path}: painted before its card had arrived`).toBe(false);
    expect(shifts.map((s) => s.value), `${path}: something moved`).toEqual([]);
  }
});
