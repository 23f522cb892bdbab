// A slow phone's first taps (scripts/inp.mjs): with the CPU 4x slower, the
// menu, the Dark theme button and the newsletter's Subscribe are tapped
// right after load, while the rest of the page is still hydrating. Each tap
// must do what the visitor asked (the menu opens, the page darkens, the box
// says what is missing), and the Event Timing API times each from the tap to
// the next paint. The times are recorded (the test's annotation) but not
// held to a number here: a busy CI machine stretches them several-fold, and
// speed targets live in benchmarks. make lighthouse runs this same test with
// INP_BOUND_MS=200, the target, on a quiet machine.
import { expect, test } from "@playwright/test";
import { firstTaps, PHONE } from "../scripts/inp.mjs";

/** The INP target this run holds the taps to (ms); 0: record only. */
const BOUND_MS = Number(process.env.INP_BOUND_MS ?? 0);

test("the first taps of a slow phone do what they ask, and their INP is recorded: menu, theme, newsletter", async ({ browser, baseURL }, testInfo) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ ...PHONE, baseURL });
  const taps = await firstTaps(context, "/", expect);
  await context.close();
  testInfo.annotations.push({ type: "INP (ms, CPU 4x slower)", description: JSON.stringify(taps) });
  console.log(`first taps, CPU 4x slower: ${JSON.stringify(taps)} ms`);
  if (BOUND_MS > 0) for (const [tap, ms] of Object.entries(taps)) expect(ms, `${tap}: ${ms} ms`).toBeLessThanOrEqual(BOUND_MS);
});
