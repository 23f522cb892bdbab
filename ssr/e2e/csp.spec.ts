// The Content-Security-Policy against the real pages: on every
// page type no `securitypolicyviolation` fires, the inline theme script runs
// (the stored dark preference is applied before hydration) and React
// hydrates. Anonymous visitors get the page cache's copy, whose inline scripts
// are allowed by hash; signed-in visitors and the private pages (login,
// register) get a streamed render whose scripts carry the answer's nonce.
import { expect, test, type Page } from "@playwright/test";
import { collectErrors, examplePath, expectNoHydrationProblems, settle, waitForHydration, signUpHeaders } from "./helpers";

const PAGES = [
  "/",
  "/features",
  "/old-pricing",
  "/partner-with-us",
  "/blog",
  examplePath("/blog/article/:slug"),
  "/help",
  examplePath("/help/category/article/:slug"),
  "/contact-us",
  "/login",
  "/register",
  "/blocks/cards",
  "/no-such-page",
];

/** Records every CSP violation from the very start of each document. */
async function watchViolations(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { __csp: string[] };
    w.__csp = [];
    document.addEventListener("securitypolicyviolation", (e) =>
      w.__csp.push(`${e.effectiveDirective} blocked ${e.blockedURI || "inline"} (${e.sourceFile}:${e.lineNumber})`),
    );
  });
}

const violations = (page: Page) => page.evaluate(() => (window as unknown as { __csp: string[] }).__csp);

function scriptSrc(csp: string | undefined): string {
  return /script-src ([^;]*)/.exec(csp ?? "")?.[1] ?? "";
}

async function visit(page: Page, path: string) {
  await watchViolations(page);
  // The theme script must run under the policy: a stored dark preference on a light system.
  await page.emulateMedia({ colorScheme: "light" });
  await page.addInitScript(() => localStorage.setItem("color-schema", "dark"));
  const errors = collectErrors(page);
  const response = await page.goto(path);
  const csp = response?.headers()["content-security-policy"];
  expect(scriptSrc(csp)).toContain("'strict-dynamic'");
  expect(scriptSrc(csp)).not.toMatch(/unsafe-inline|unsafe-eval/);
  await expect(page.locator("html")).toHaveClass(/\bdark\b/);
  await waitForHydration(page);
  await settle(page);
  expect(await violations(page)).toEqual([]);
  expectNoHydrationProblems(errors);
  // Every indexable page of the site carries its JSON-LD (lib/seo.server.tsx) under the same policy: data, not
  // script. A noindex page (the sign-in pages, kept out of search and the sitemap) carries none.
  if (response?.status() === 200 && !path.startsWith("/blocks")) {
    const noindex = (await page.locator('meta[name="robots"][content*="noindex"]').count()) > 0;
    await expect(page.locator('script[type="application/ld+json"]')).toHaveCount(noindex ? 0 : 1);
  }
  return { response: response!, csp: csp ?? "" };
}

test.describe("anonymous visitors (cached pages: hashes)", () => {
  // The pages are rendered into the cache first (a miss renders the complete document,
  // which is slow on a busy machine); the tests then see what most visitors get: hits.
  test.beforeAll(async ({ playwright, baseURL }) => {
    test.setTimeout(120_000);
    const api = await playwright.request.newContext({ baseURL });
    for (const path of PAGES) await api.get(path);
    await api.dispose();
  });

  for (const path of PAGES) {
    test(`${path}: no CSP violation, theme script ran, hydrated`, async ({ page }) => {
      const { response, csp } = await visit(page, path);
      const cached = response.headers()["x-cache"] !== "BYPASS";
      if (cached) {
        expect(csp).toMatch(/'sha256-[A-Za-z0-9+/]+=*'/);
        // No one visitor's nonce is frozen into a shared page.
        expect(await response.text()).not.toContain(" nonce=");
      } else {
        expect(csp).toMatch(/'nonce-[A-Za-z0-9_-]+'/);
      }
    });
  }

  test("a client-side navigation from a cached page loads its chunks without violations", async ({ page }) => {
    await watchViolations(page);
    const errors = collectErrors(page);
    await page.goto("/");
    await waitForHydration(page);
    await page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Features" }).click();
    await expect(page).toHaveURL("/features");
    await expect(page.locator("[data-feature-grid]")).toBeVisible();
    expect(await violations(page)).toEqual([]);
    expectNoHydrationProblems(errors);
  });
});

test.describe("signed-in visitors", () => {
  let session: { name: string; value: string } | undefined;
  test.beforeAll(async ({ playwright, baseURL }) => {
    // One real session for the group: registered through the API.
    const api = await playwright.request.newContext({ baseURL });
    const id = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
    const res = await api.post("/api/v1/oaccount/register", {
      headers: signUpHeaders(baseURL!),
      data: { name: "CSP Tester", email: `csp-${id}@example.com`, password: "a long enough secret", storeName: `csp ${id}` },
    });
    expect(res.status()).toBe(201);
    session = (await api.storageState()).cookies.find((c) => c.name === "omnibus_session");
    await api.dispose();
  });
  test.beforeEach(async ({ page, baseURL }) => {
    await page.context().addCookies([{ name: session!.name, value: session!.value, url: baseURL! }]);
  });

  // Pages with none of the visitor's own data: one copy per sign-in status in the edge's cache
  // (decision 0034), sealed with hashes like the anonymous pages, and private.
  for (const path of ["/", "/features", examplePath("/blog/article/:slug"), "/blocks/cards"]) {
    test(`${path}: the status's cached copy, hashes, private, no CSP violation`, async ({ page }) => {
      const { response, csp } = await visit(page, path);
      expect(["MISS", "HIT"]).toContain(response.headers()["x-cache"]);
      expect(response.headers()["cache-control"]).toContain("private");
      expect(csp).toMatch(/'sha256-[A-Za-z0-9+/]+=*'/);
      expect(await response.text()).not.toContain(" nonce=");
    });
  }

  // Pages the edge hands the visitor's own data (edgeData) are streamed for them alone: nonces.
  for (const path of ["/contact-us"]) {
    test(`${path}: streamed with a nonce, no CSP violation`, async ({ page }) => {
      const { response, csp } = await visit(page, path);
      expect(response.headers()["x-cache"]).toBe("BYPASS");
      const nonce = /'nonce-([A-Za-z0-9_-]+)'/.exec(csp)?.[1];
      expect(nonce).toBeTruthy();
      // Every script the renderer wrote carries this answer's nonce; the JSON-LD
      // (type="application/ld+json") is a data block, which no browser runs and CSP leaves alone.
      const html = await response.text();
      const scripts = (html.match(/<script\b[^>]*>/g) ?? []).filter((tag) => !tag.includes('type="application/ld+json"'));
      expect(scripts.length).toBeGreaterThan(0);
      for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    });
  }
});
