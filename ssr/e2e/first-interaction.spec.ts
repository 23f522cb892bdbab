// A slow phone's first taps answer quickly (scripts/inp.mjs): with the CPU 4x
// slower, the menu, the Dark theme button and the newsletter's Subscribe are
// tapped right after load, while the rest of the page is still hydrating,
// and the Event Timing API times each from the tap to the next paint.
// make lighthouse holds them to the target (INP ≤ 200 ms); here the bound is
// generous, for a busy machine, and still catches a page that hydrates in one
// long task again: before the page hydrated only what moves, the menu's tap
// waited for the whole page's hydration (see docs/performance.md).
import { expect, test } from "@playwright/test";
import { firstTaps, PHONE } from "../scripts/inp.mjs";

const BOUND_MS = 1000;

test("the first taps of a slow phone answer within the bound: menu, theme, newsletter", async ({ browser, baseURL }, testInfo) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ ...PHONE, baseURL });
  const taps = await firstTaps(context, "/", expect);
  await context.close();
  testInfo.annotations.push({ type: "INP (ms, CPU 4x slower)", description: JSON.stringify(taps) });
  console.log(`first taps, CPU 4x slower: ${JSON.stringify(taps)} ms`);
  for (const [tap, ms] of Object.entries(taps)) expect(ms, `${tap}: ${ms} ms`).toBeLessThanOrEqual(BOUND_MS);
});
