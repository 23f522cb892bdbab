import { readFileSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Locator, type Page } from "@playwright/test";

export interface TableEntry {
  id: string;
  path: string;
  layout: string;
  title: string;
  module: string;
}

const table = JSON.parse(readFileSync(new URL("../../shared/routes.json", import.meta.url), "utf8")) as {
  routes: TableEntry[];
  notFound: Omit<TableEntry, "path">;
};
export const routes = table.routes;
export const notFound = table.notFound;

export { examplePath } from "./example-paths";

/**
 * The visitor's first sign, at which an anonymous visitor's page starts
 * hydrating (lib/boot.ts): the mouse comes over the page, at its top left
 * corner, where no page has a link (a hover there prefetches nothing).
 */
export async function firstSign(page: Page) {
  await page.mouse.move(2, 2);
  await page.mouse.move(1, 1);
}

/**
 * Resolves once React has hydrated the page (React attaches its props to
 * hydrated DOM nodes) and the full stylesheet applies: both are fetched after
 * the first paint (lib/deferred-scripts.tsx), the stylesheet can arrive after
 * hydration, and below the first screen the page is only fully styled then.
 * An anonymous visitor's page hydrates at their first sign (lib/boot.ts): firstSign first.
 */
export async function waitForHydration(page: Page) {
  await firstSign(page);
  await page.waitForFunction(() => {
    const link = document.querySelector("header a[href='/']");
    const hydrated = !!link && Object.keys(link).some((key) => key.startsWith("__reactProps"));
    return hydrated && [...document.styleSheets].some((sheet) => /\/assets\/app-[^/]+\.css$/.test(sheet.href ?? ""));
  });
}

/**
 * Resolves once React has hydrated this element: for the parts of a page
 * whose code loads after the rest, islands (the footer, the newsletter box:
 * lib/island.tsx) and lazily loaded components (the Google button).
 */
export async function waitForIsland(locator: Locator) {
  await expect.poll(() => locator.evaluate((el) => Object.keys(el).some((key) => key.startsWith("__reactProps")))).toBe(true);
}

/**
 * Waits until the page has loaded and fetched nothing more for half a second
 * (its lazy chunks and islands are in), counting finished resources. Unlike
 * Playwright's "networkidle" a request that never ends (a prefetch the
 * browser parks on a busy machine) cannot hold it for the whole test budget.
 */
export async function settle(page: Page) {
  await page.waitForLoadState("load");
  let last = -1;
  await expect
    .poll(
      async () => {
        const n = await page.evaluate(() => performance.getEntriesByType("resource").length);
        const same = n === last;
        last = n;
        return same;
      },
      { intervals: [500], timeout: 20_000 },
    )
    .toBe(true);
}

/** Collects console errors and uncaught exceptions (React reports hydration mismatches as either). */
export function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() !== "error") return;
    // Chrome logs a document's own error status (the not-found page's 404) as a console error.
    if (message.text().startsWith("Failed to load resource") && message.location().url === page.url()) return;
    errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

export function expectNoHydrationProblems(errors: string[]) {
  // Production React reports a mismatch as minified error #418/#419/#423/#425; development spells it out.
  const hydration = errors.filter((e) => /hydrat|did not match|#41[89]|#42[35]/i.test(e));
  expect(hydration, "hydration problems").toEqual([]);
  expect(errors, "console errors").toEqual([]);
}

/** What a theme changes is colour: axe's rules for it (the dark pass of a page already checked light). */
export const COLOUR_RULES = ["color-contrast", "link-in-text-block"];

/**
 * axe's findings on the page as it is now; `rules` limits the run to those
 * rules. Legacy mode runs axe inside the page itself: the default opens a
 * second blank page per run to merge frame results, which doubled each run's
 * time, and these pages have no cross-origin frames to merge.
 */
export async function axeViolations(page: Page, rules?: string[]) {
  // Islands are drawn only as they near the viewport (theme.css): draw them all,
  // so that axe judges the colours of the whole page, not of its first screen.
  await page.evaluate(() => document.querySelectorAll<HTMLElement>("[data-island]").forEach((el) => (el.style.contentVisibility = "visible")));
  const builder = new AxeBuilder({ page }).setLegacyMode(true);
  if (rules) builder.withRules(rules);
  const results = await builder.analyze();
  return results.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(" ")) }));
}

let signUps = 0;

/**
 * Headers for a sign-up a test makes through the API as set-up (not the subject of
 * the test): a documentation address (203.0.113.0/24) of its own in X-Forwarded-For,
 * which the edge takes from its loopback peer as from a trusted proxy. The whole
 * suite signs up from one machine within minutes, as an office would, and the
 * per-address sign-up limit (10 a minute) would refuse whichever test came last.
 */
export function signUpHeaders(origin: string): Record<string, string> {
  signUps = (signUps + 1) % 250;
  return { Origin: origin, "X-Forwarded-For": `203.0.113.${signUps + 1}` };
}
