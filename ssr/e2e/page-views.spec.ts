// Page views of a visitor with JavaScript, counted at the edge from
// what the real client sends. A client-side navigation reaches the edge only
// as the page's data request (/features.data?_routes=features); a hover first
// prefetches it (Sec-Purpose: prefetch, not counted), and the click then
// revalidates it (If-None-Match, counted once: the answer carries max-age=0).
// Its own edge (a fresh SQLite database), so the counts are this test's alone.
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { settle, signUpHeaders, waitForHydration } from "./helpers";
import { startLocalEdge, type LocalEdge } from "./local-edge";
import { grantStaff, studioByTOTP } from "./staff";

// A browser's user agent: isbot (and so the counter) takes HeadlessChrome for a bot.
const userAgent = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";

test.describe("page views with JavaScript", () => {
  let edge: LocalEdge | undefined;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "omnibus-e2e-views-"));

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    edge = await startLocalEdge({
      env: { DATA_DIR: dataDir, LOG_LEVEL: "warn" },
    });
  });
  test.afterAll(() => edge?.stop());

  /** Hovers the navigation's link (its data is prefetched), then clicks it: a client-side navigation. */
  async function hoverThenClick(page: Page, name: string, pathname: string) {
    const link = page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name, exact: true });
    await link.hover();
    await settle(page); // the hover's prefetch is done before the click
    await link.click();
    await page.waitForURL(`**${pathname}`);
    await expect(page.locator("main h1").first()).toBeVisible();
  }

  test("a click-through counts each page once: the landing, a page with data, /features, /login; hover prefetches do not count", async ({ browser }) => {
    const origin = edge!.origin;
    const ctx = await browser.newContext({ baseURL: origin, userAgent, javaScriptEnabled: true });
    const page = await ctx.newPage();
    const dataRequests: string[] = [];
    page.on("request", (r) => {
      if (new URL(r.url()).pathname.endsWith(".data")) dataRequests.push(`${new URL(r.url()).pathname} ${r.headers()["sec-purpose"] ?? "navigation"}`);
    });
    await page.goto("/");
    await waitForHydration(page);
    await hoverThenClick(page, "Pricing", "/old-pricing"); // a route with a loader of its own
    await hoverThenClick(page, "Features", "/features"); // a page without data of its own
    // A page whose clientLoader checks the sign-in status first (no prefetch of its data).
    await page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Sign in", exact: true }).click();
    await page.waitForURL("**/login");
    await expect(page.locator("main h1").first()).toBeVisible();
    // Staff read the counts: an account given the viewer role by the operator's command on this
    // edge's database, then a studio session (a second factor: a password alone never opens it).
    const email = `views-${Date.now()}@example.com`;
    const reg = await ctx.request.post("/api/v1/oaccount/register", {
      headers: signUpHeaders(origin),
      data: { name: "Ana Lima", email, password: "correct horse battery", storeName: `views-${Date.now()}` },
    });
    expect(reg.status()).toBe(201);
    grantStaff(dataDir, email, "viewer", "--allow-totp");
    expect((await ctx.request.get("/staff/insights/pages.csv", { maxRedirects: 0 })).status(), "a password alone").toBe(303);
    await studioByTOTP(ctx.request, origin);
    const csv = await ctx.request.get("/staff/insights/pages.csv");
    expect(csv.status()).toBe(200);
    const views = Object.fromEntries(
      (await csv.text())
        .trim()
        .split("\n")
        .slice(1)
        .map((line) => line.split(",")),
    );
    expect(views).toEqual({ "/": "1", "/old-pricing": "1", "/features": "1", "/login": "1" });
    // What the counts rest on: each page's data was prefetched on the hover, then asked for again by the click.
    for (const p of ["/old-pricing", "/features"]) {
      const prefetch = dataRequests.indexOf(`${p}.data prefetch`);
      expect(prefetch, `${p}: a prefetch on the hover (${dataRequests})`).toBeGreaterThanOrEqual(0);
      expect(dataRequests.indexOf(`${p}.data navigation`, prefetch), `${p}: the click's request after it (${dataRequests})`).toBeGreaterThan(prefetch);
    }
    const staff = await ctx.newPage();
    await staff.goto("/staff/insights");
    await expect(staff.locator("#pages ~ table").first()).toContainText("/features");
    await ctx.close();
  });
});
