// The first interactions of a slow phone, measured the way browsers report
// them to the page: the Event Timing API (PerformanceObserver 'event'
// entries, durationThreshold 16 ms), the time from each tap to the next
// paint. Chromium's CPU runs 4x slower (DevTools' Emulation.setCPUThrottlingRate).
// The visitor taps, right after the page has loaded (its first tap starts the hydration):
//   1. the navigation's menu button (a phone's screen), which opens the menu;
//   2. the Dark theme button, which darkens the page;
//   3. the newsletter box's Subscribe with no address, which says what is missing.
// Used by e2e/first-interaction.spec.ts: in make test each tap must do what
// it asks and the times are recorded; make lighthouse runs the same test
// with INP_BOUND_MS=200, the target (INP ≤ 200 ms).

export const CPU_SLOWDOWN = 4;
/** The phone of Lighthouse's mobile run. */
export const PHONE = { viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true };

/** Runs in the page before its scripts: keeps every Event Timing entry of 16 ms or more. */
function observeEvents() {
  const w = window;
  w.__events = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.interactionId) w.__events.push({ name: e.name, start: e.startTime, duration: e.duration, id: e.interactionId });
  }).observe({ type: "event", durationThreshold: 16, buffered: true });
}

/** The page's time now, after the frame being drawn has been presented and queued entries delivered. */
const afterNextPaint = (page) =>
  page.evaluate(
    () =>
      new Promise((resolve) =>
        requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() => resolve(performance.now()), 0))),
      ),
  );

/** The longest Event Timing entry between two page times (0: none reached 16 ms). */
const longestBetween = (page, from, to) =>
  page.evaluate(([a, b]) => Math.max(0, ...window.__events.filter((e) => e.start >= a && e.start <= b).map((e) => e.duration)), [from, to]);

/**
 * One tap and what the visitor waits for after it; returns the interaction's
 * duration as Event Timing reports it (ms, 0 when under 16 ms).
 */
async function timedTap(page, locator, effect) {
  const from = await page.evaluate(() => performance.now());
  await locator.tap();
  await effect();
  // Entries are delivered after the paint that ends them: wait for that paint, then read them.
  await afterNextPaint(page);
  const to = await afterNextPaint(page);
  return longestBetween(page, from, to);
}

/**
 * Opens `url` (a site's /) in a fresh page of `context` (made with PHONE)
 * with the CPU slowed down, and times the three taps. `expect` is
 * Playwright's, for the waits on what each tap does.
 */
export async function firstTaps(context, url, expect) {
  const page = await context.newPage();
  await page.addInitScript(observeEvents);
  const cdp = await context.newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU_SLOWDOWN });
  await page.goto(url);
  // Right after load: the page has painted and its scripts' chunks are preloaded. An anonymous
  // visitor's page hydrates at their first sign (lib/boot.ts), here the menu's tap: the menu and
  // the theme answer without React, the later taps land while the page hydrates.
  await page.waitForFunction(() => document.readyState == "complete" && !!document.querySelector('link[rel="modulepreload"]'));
  const menu = page.locator("header details");
  const menuMs = await timedTap(page, menu.locator("summary"), () => expect(menu).toHaveAttribute("open", ""));
  const themeMs = await timedTap(page, page.locator("header button[value='dark']"), () => expect(page.locator("html")).toHaveClass(/\bdark\b/));
  // The newsletter box is in the footer: the visitor scrolls to it (its island hydrates as it nears).
  const box = page.locator("#newsletter");
  await box.scrollIntoViewIfNeeded();
  await expect.poll(() => box.locator("form").evaluate((el) => Object.keys(el).some((key) => key.startsWith("__reactProps")))).toBe(true);
  const newsletterMs = await timedTap(page, box.locator("button[type=submit]"), () => expect(box.getByRole("alert")).toBeVisible());
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
  await page.close();
  return { menu: menuMs, theme: themeMs, newsletter: newsletterMs };
}
