import { readFileSync } from "node:fs";
import { expect, type Page } from "@playwright/test";

export interface TableEntry {
  id: string;
  path: string;
  layout: string;
  title: string;
}

const table = JSON.parse(readFileSync(new URL("../../shared/routes.json", import.meta.url), "utf8")) as {
  routes: TableEntry[];
  notFound: Omit<TableEntry, "path">;
};
export const routes = table.routes;
export const notFound = table.notFound;

export { examplePath } from "./example-paths";

/** Resolves once React has hydrated the page (React attaches its props to hydrated DOM nodes). */
export async function waitForHydration(page: Page) {
  await page.waitForFunction(() => {
    const link = document.querySelector("header a[href='/']");
    return !!link && Object.keys(link).some((key) => key.startsWith("__reactProps"));
  });
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
