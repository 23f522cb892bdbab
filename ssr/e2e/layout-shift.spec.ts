// The component catalogue (/blocks) and its demo pages do not
// shift as they load (CLS ≤ 0.01), on a phone as Lighthouse's mobile run
// loads it: 412 px wide, slow 4G-like network, CPU slowed 4x, so the full
// stylesheet arrives well after the first paint (/blocks shifted by 0.301
// when its cards' preview boxes got their height from it).
import { type Page, expect, test } from "@playwright/test";
import { routes, waitForHydration } from "./helpers";

// Every demo page measured 0 once card heights were in the first-view CSS (each ~4 s under a phone's
// network and CPU; all 49 took 2.3 min on this 2-core machine); make test
// measures a bounded set: /blocks, /blocks/images, whose examples shifted most
// (0.021) while the catalogue's script-only controls (theme switch, copy)
// appeared on hydration in rows without a reserved height, as every demo
// page's did (0.015-0.02), and /blocks/navtabs, whose tabs replaced the
// taller server-rendered panels (0.07). LAYOUT_SHIFT_ALL=1 measures all of them.
const allDemos = routes.filter((r) => r.module.startsWith("_blocks/")).map((r) => r.path);
const bounded = new Set(["/blocks", "/blocks/images", "/blocks/navtabs"]);
const demos = process.env.LAYOUT_SHIFT_ALL ? allDemos : allDemos.filter((p) => bounded.has(p));

// The sum of the layout shifts without recent input, as Lighthouse counts
// the page load (PerformanceObserver, buffered from navigation).
async function loadAndMeasure(page: Page, path: string) {
  await page.addInitScript(() => {
    (window as any).__cls = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as any[]) if (!e.hadRecentInput) (window as any).__cls += e.value;
    }).observe({ type: "layout-shift", buffered: true });
  });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 });
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  await page.goto(path, { waitUntil: "load" });
  // Loaded: the page hydrated (the controls that need scripts are in), the
  // full stylesheet applies, the fonts and the pictures on screen are in.
  // Not "network idle": a route-discovery request (/__manifest) sometimes
  // stays open ~30 s, which is no shift and made each page take 35 s.
  await waitForHydration(page);
  await page.evaluate(() => document.fonts.ready);
  await page.waitForFunction(() =>
    [...document.images].every((img) => img.complete || !img.checkVisibility() || img.getBoundingClientRect().top > innerHeight),
  );
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
  return page.evaluate(() => (window as any).__cls as number);
}

test.describe("layout shifts of the component catalogue", () => {
  test.use({ viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
  for (const path of demos) {
    test(`${path}: CLS ≤ 0.01`, async ({ page }) => {
      test.setTimeout(120_000);
      const cls = await loadAndMeasure(page, path);
      test.info().annotations.push({ type: "CLS", description: cls.toFixed(4) });
      expect(cls, `${path} layout shift`).toBeLessThanOrEqual(0.01);
    });
  }
});
