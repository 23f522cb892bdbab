// Site search. Without JavaScript: the help centre's search box posts nothing
// and needs no script; the edge answers the query and the page shows the
// results with the matched words marked; a query the site does not answer
// says so (and is counted for the staff insights page: analytics' Go test).
// With JavaScript, the results follow the typing (the API, loaded on focus).
// Its own edge (a fresh SQLite database), so the counts are this test's alone.
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { waitForHydration } from "./helpers";
import { startLocalEdge, type LocalEdge } from "./local-edge";

// A browser's user agent: the counts leave crawlers (HeadlessChrome among them) out.
const userAgent = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";

test.describe("site search", () => {
  let edge: LocalEdge | undefined;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "omnibus-e2e-search-"));

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    edge = await startLocalEdge({ env: { DATA_DIR: dataDir, LOG_LEVEL: "warn", CACHE_WARM: "false" } });
    // The renderer answers the search page before the tests start (its first render may be slow).
    await expect.poll(async () => (await fetch(`${edge!.origin}/search`)).status, { timeout: 60_000 }).toBe(200);
  });
  test.afterAll(() => edge?.stop());

  test("“refnd” from /help finds the refunds article first with a marked snippet; an unanswered query says so", async ({ browser }) => {
    const origin = edge!.origin;
    const ctx = await browser.newContext({ baseURL: origin, userAgent, javaScriptEnabled: false });
    const page = await ctx.newPage();
    await page.goto("/help");
    const box = page.getByRole("searchbox");
    await box.fill("refnd");
    await box.press("Enter");
    await page.waitForURL("**/search?q=refnd");
    const first = page.locator("[data-search-results] > li").first();
    await expect(first.getByRole("link")).toHaveAttribute("href", "/help/category/article/returns-cancellations-and-refunds");
    await expect(first.locator("p mark").first()).toHaveText(/^refund/i);
    await expect(first).toContainText("Orders and shipping");
    // Noindex, and the box keeps the query.
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
    await expect(page.getByRole("searchbox")).toHaveValue("refnd");

    // A question the site does not answer yet.
    await page.getByRole("searchbox").fill("blockchain loyalty points");
    await page.getByRole("searchbox").press("Enter");
    await page.waitForURL("**/search?q=blockchain*");
    await expect(page.getByText(/Nothing matched “blockchain loyalty points”/)).toBeVisible();

    // Staff read it under "No results" on the insights page, which needs a studio
    // session (a passkey): edge/internal/analytics TestAnUnansweredSearchIsListedForStaff
    // checks that through the whole edge on both databases.
    await ctx.close();
  });

  test("a box focused and typed into before the page hydrated still follows the typing once it has", async ({ browser }) => {
    const ctx = await browser.newContext({ baseURL: edge!.origin, userAgent });
    const page = await ctx.newPage();
    // Hold the page's scripts until the visitor is in the box and has typed.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/entry\.client-[^/]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto("/search?q=refund");
    const box = page.getByRole("searchbox");
    await box.click();
    await box.fill("domain");
    release();
    await waitForHydration(page);
    await expect(page.locator("[data-search-results] > li").first().getByRole("link")).toHaveAttribute("href", "/help/category/article/connect-your-domain");
    await expect(page).toHaveURL(/\/search\?q=domain$/);
    await ctx.close();
  });

  test("with JavaScript, the results follow the typing once the box is focused, and the address follows the query", async ({ browser }) => {
    const ctx = await browser.newContext({ baseURL: edge!.origin, userAgent });
    const page = await ctx.newPage();
    const live: string[] = [];
    page.on("request", (r) => {
      if (new URL(r.url()).pathname === "/api/v1/search") live.push(new URL(r.url()).searchParams.get("q") ?? "");
    });
    await page.goto("/search?q=refund");
    await expect(page.locator("[data-search-results] > li").first().getByRole("link")).toHaveAttribute("href", "/help/category/article/returns-cancellations-and-refunds");
    const box = page.getByRole("searchbox");
    await box.click();
    await box.fill("domain");
    await expect(page.locator("[data-search-results] > li").first().getByRole("link")).toHaveAttribute("href", "/help/category/article/connect-your-domain");
    await expect(page).toHaveURL(/\/search\?q=domain$/);
    expect(live).toContain("domain");
    await ctx.close();
  });
});
