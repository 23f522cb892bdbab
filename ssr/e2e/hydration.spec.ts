import { expect, test } from "@playwright/test";
import featuresPage from "@omnibus/shared/content/features-page.json" with { type: "json" };
import { collectErrors, examplePath, expectNoHydrationProblems, settle, waitForHydration } from "./helpers";

test("the landing page hydrates: an internal link changes the page without a document load", async ({ page }) => {
  const errors = collectErrors(page);
  const documents: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "document") documents.push(request.url());
  });

  await page.goto("/");
  await waitForHydration(page);
  await page.evaluate(() => ((window as unknown as { __marker: number }).__marker = 1));

  await page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Features" }).click();
  await expect(page).toHaveURL("/features");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(featuresPage.heading);
  // The deferred feature list arrives over the client data request.
  await expect(page.locator("[data-feature-grid]")).toBeVisible();

  expect(await page.evaluate(() => (window as unknown as { __marker?: number }).__marker)).toBe(1);
  expect(documents).toHaveLength(1);
  expectNoHydrationProblems(errors);
});

for (const path of ["/", "/features", "/contact-us", "/login", examplePath("/blog/article/:slug"), "/blocks/cards", "/no-such-page"]) {
  for (const colorScheme of ["light", "dark"] as const) {
    test(`${path} hydrates without errors (${colorScheme})`, async ({ page }) => {
      await page.emulateMedia({ colorScheme });
      const errors = collectErrors(page);
      await page.goto(path);
      await waitForHydration(page);
      // Give deferred data and late effects a moment to report anything.
      await settle(page);
      expectNoHydrationProblems(errors);
    });
  }
}
