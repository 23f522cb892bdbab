// Site search without JavaScript: the help centre's search box posts nothing
// and needs no script; the edge answers the query and the page shows the
// results with the matched words marked. A query the site does not answer
// then shows on the staff insights page under "No results", for marketing.
// Its own edge (a fresh SQLite database), so the counts are this test's alone.
import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { signUpHeaders } from "./helpers";
import { startLocalEdge, type LocalEdge } from "./local-edge";

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer().once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

// A browser's user agent: the counts leave crawlers (HeadlessChrome among them) out.
const userAgent = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";

test.describe("site search without JavaScript", () => {
  let edge: LocalEdge | undefined;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "omnibus-e2e-search-"));

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    edge = await startLocalEdge({
      port: await freePort(),
      rendererPort: String(await freePort()),
      oidcAddr: `127.0.0.1:${await freePort()}`,
      env: { DATA_DIR: dataDir, LOG_LEVEL: "warn", CACHE_WARM: "false", ...(process.env.E2E_SSR_DIR ? { SSR_DIR: process.env.E2E_SSR_DIR } : {}) },
    });
  });
  test.afterAll(() => edge?.stop());

  test("“refnd” from /help finds the refunds article first with a marked snippet; an unanswered query is listed for staff", async ({ browser }) => {
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

    // Staff read it under "No results".
    const email = `search-${Date.now()}@example.com`;
    const reg = await ctx.request.post("/api/v1/oaccount/register", {
      headers: signUpHeaders(origin),
      data: { name: "Ana Lima", email, password: "correct horse battery", storeName: `search-${Date.now()}` },
    });
    expect(reg.status()).toBe(201);
    execFileSync(path.join(import.meta.dirname, "..", "..", "edge", "bin", "edge"), ["staff", "grant", email], {
      env: { ...process.env, OMNIBUS_ENV: "development", DATA_DIR: dataDir, DATABASE_URL: "" },
    });
    const staff = await ctx.newPage();
    await staff.goto("/staff/insights");
    const noResults = staff.locator("#searches table", { has: staff.getByRole("columnheader", { name: "No results" }) }).first();
    await expect(noResults).toContainText("blockchain loyalty points");
    await expect(noResults).not.toContainText("refnd");
    await ctx.close();
  });
});
