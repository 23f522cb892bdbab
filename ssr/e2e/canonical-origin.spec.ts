// One canonical origin. The edge runs as `make run` runs it
// (PUBLIC_URL http://localhost:<port>, payments in test mode) and the
// merchant types the other spelling of the address, http://127.0.0.1:<port>.
// Every page is sent to the public origin first, so the whole journey
// (register → confirm the address → choose a paid plan → pay in test mode
// → merchant home) works and ends there, with JavaScript and without.
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import auth from "@omnibus/shared/content/auth.json" with { type: "json" };
import footer from "@omnibus/shared/content/footer.json" with { type: "json" };
import journeyCopy from "@omnibus/shared/content/journey.json" with { type: "json" };
import { collectErrors, waitForHydration } from "./helpers";

// Next to this run's e2e edge (E2E_PORT) and clear of auth.spec's (+3, +7) and journey.spec's (8096, 8097) ports.
const PORT = Number(process.env.E2E_ORIGIN_PORT ?? Number(process.env.E2E_PORT ?? 8091) + 11);
const RENDERER_PORT = process.env.E2E_ORIGIN_RENDERER_PORT ?? String(PORT + 1);
const PUBLIC = `http://localhost:${PORT}`;
const OTHER = `http://127.0.0.1:${PORT}`;
const SLOW = { timeout: 20_000 };
const edgeDir = path.join(import.meta.dirname, "..", "..", "edge");
const dataDir = mkdtempSync(path.join(os.tmpdir(), "omnibus-e2e-origin-"));
const edgeEnv = { ...process.env, OMNIBUS_ENV: "development", DATA_DIR: dataDir, DATABASE_URL: "" };

async function waitFor(url: string, deadline: number) {
  for (;;) {
    try {
      if ((await fetch(url, { redirect: "manual" })).status < 400) return;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) throw new Error(`${url} did not come up`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The confirmation link of the newest message to `to` in the development outbox (`edge mail`). */
async function confirmationLink(to: string): Promise<string> {
  let link = "";
  await expect
    .poll(() => {
      const out = execFileSync(path.join(edgeDir, "bin", "edge"), ["mail", "-n", "1", "-to", to], { cwd: edgeDir, env: edgeEnv, encoding: "utf8" });
      link = out.match(/https?:\/\/\S+verify-email\?token=\S+/)?.[0] ?? "";
      return link;
    }, SLOW)
    .not.toBe("");
  return link;
}

const fill = (text: string, values: Record<string, string>) => text.replace(/\{(\w+)\}/g, (_, k: string) => values[k] ?? "");

async function journey(page: Page, js: boolean, slug: string, storeTitle: string) {
  const email = `${slug}@example.com`;
  const w = journeyCopy.welcome;
  const errors = collectErrors(page);
  const csp: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy/i.test(m.text())) csp.push(m.text());
  });

  await page.goto(`${OTHER}/register`);
  await expect(page).toHaveURL(`${PUBLIC}/register`);
  if (js) await waitForHydration(page);
  await page.getByLabel(auth.register.name).fill("Jane Doe");
  await page.getByLabel(auth.register.email).fill(email);
  await page.getByLabel(auth.register.password).fill("correct horse battery");
  await page.getByLabel(auth.register.storeName).fill(storeTitle);
  await page.getByRole("button", { name: auth.register.submit }).click();
  await expect(page).toHaveURL(`${PUBLIC}/contact-us`, SLOW);

  // The welcome names the store as typed, says where the confirmation went and offers it again.
  const welcome = page.locator("[data-welcome]");
  await expect(welcome.getByRole("heading")).toHaveText(fill(w.heading, { store: storeTitle }));
  await expect(welcome.locator("[data-verify]")).toContainText(fill(w.verifyTo, { email }));
  await welcome.getByRole("button", { name: w.resend }).click();
  await expect(page).toHaveURL(`${PUBLIC}/contact-us?verify=sent`, SLOW);
  await expect(page.locator("[data-welcome] [data-verify]")).toContainText(fill(w.resent, { email }));
  // A merchant is not asked to open a store they have.
  await expect(page.getByText(footer.cta.title)).toHaveCount(0);

  // The e-mailed link names the public origin; opened there it confirms the address.
  const link = await confirmationLink(email);
  expect(new URL(link).origin).toBe(PUBLIC);
  await page.goto(link);
  await expect(page).toHaveURL(new RegExp(`^${PUBLIC}/`), SLOW);
  // Signed in, the confirmation is said where the link lands.
  await expect(page.locator("[data-welcome] [data-verify]")).toContainText(fill(w.verified, { email }));

  // The plan choice, typed at the other address: sent to the public origin, then paid there.
  await page.goto(`${OTHER}/choose-plan`);
  await expect(page).toHaveURL(`${PUBLIC}/choose-plan`, SLOW);
  if (js) await waitForHydration(page);
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
  // Each plan's features, and the way to sales for the plan priced on request.
  await expect(page.locator("#plan-growth [data-plan-features] li")).toHaveCount(5);
  await expect(page.locator("#plan-growth")).toContainText("No transaction fee");
  await expect(page.locator("#plan-enterprise").getByRole("link", { name: fill(w.contactSales, { plan: "Enterprise" }) })).toHaveAttribute("href", "/contact-us");
  await expect(page.getByText(footer.cta.title)).toHaveCount(0);
  await page.getByRole("button", { name: "Choose Growth" }).click();
  await expect(page).toHaveURL(new RegExp(`^${PUBLIC}/test-payment\\?session=tm_`), SLOW);
  await page.getByRole("button", { name: /^Pay ₹/ }).click();
  await expect(page).toHaveURL(new RegExp(`^${PUBLIC}/landing-page\\?order=`), SLOW);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(fill(journeyCopy.home.headingFirst, { store: storeTitle }));
  // What was paid, the plan, the receipt number and the next step.
  const paid = page.locator("[data-paid-order]");
  await expect(paid).toContainText(journeyCopy.home.paidHeading);
  await expect(paid).toContainText("₹21,225.84");
  await expect(paid).toContainText("Growth");
  const receipt = (await paid.locator("[data-receipt]").textContent()) ?? "";
  expect(page.url()).toContain(`order=${receipt}`);
  await expect(paid).toContainText(journeyCopy.home.next);
  await expect(page.getByText(footer.cta.title)).toHaveCount(0);

  // The merchant's own page is not for search engines.
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
  // A marketing page names the public origin in its canonical link.
  await page.goto(`${OTHER}/features`);
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", `${PUBLIC}/features`);
  expect(csp, "CSP violations").toEqual([]);
  expect(errors.filter((e) => /Content Security Policy|form-action/i.test(e))).toEqual([]);
}

test.describe("one canonical origin", () => {
  test.describe.configure({ mode: "serial" });
  let edge: ChildProcess | undefined;

  test.beforeAll(async () => {
    test.setTimeout(150_000);
    edge = spawn(path.join(edgeDir, "bin", "edge"), [], {
      cwd: edgeDir,
      stdio: "ignore",
      env: {
        ...edgeEnv,
        LISTEN_ADDR: `127.0.0.1:${PORT}`,
        RENDERER_PORT,
        SSR_DIR: path.join(import.meta.dirname, ".."),
        PUBLIC_URL: PUBLIC,
        STRIPE_SECRET_KEY: "",
        METRICS_ADDR: "",
        LOG_LEVEL: "warn",
      },
    });
    await waitFor(`${PUBLIC}/login`, Date.now() + 120_000);
  });

  test.afterAll(() => {
    edge?.kill("SIGTERM");
  });

  test("any other host is sent to the public origin with its path and query, health aside", async ({ request }) => {
    const res = await request.get(`${OTHER}/features?utm_source=x`, { maxRedirects: 0 });
    expect(res.status()).toBe(301);
    expect(res.headers().location).toBe(`${PUBLIC}/features?utm_source=x`);
    const post = await request.post(`${OTHER}/register`, { form: { name: "x" }, maxRedirects: 0 });
    expect(post.status()).toBe(308);
    expect(post.headers().location).toBe(`${PUBLIC}/register`);
    expect((await request.get(`${OTHER}/healthz`, { maxRedirects: 0 })).status()).toBe(200);
  });

  for (const js of [true, false]) {
    test(`the journey typed at 127.0.0.1 ends on localhost, JavaScript ${js ? "on" : "off"}`, async ({ browser }) => {
      test.setTimeout(150_000);
      const context = await browser.newContext({ javaScriptEnabled: js });
      const page = await context.newPage();
      await journey(page, js, js ? "origin-js" : "origin-nojs", js ? "Origin JS Shop" : "Origin NoJS Shop");
      await context.close();
    });
  }
});
