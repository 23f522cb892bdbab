// The merchant's whole journey in the browser, on an edge configured as
// `make run` configures it: payments in test mode (PUBLIC_URL on loopback, no
// Stripe key) and Google sign-in through the local OpenID provider
// (devtools/cmd/oidcdev; e2e/local-edge.ts), whose every sign-in is jane.doe@example.com. From the
// landing page: register → welcome → choose a plan → test-mode payment →
// merchant home; then sign out and sign in with the Google button, which
// runs the redirect flow and loads nothing from outside the site.
import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import auth from "@omnibus/shared/content/auth.json" with { type: "json" };
import journey from "@omnibus/shared/content/journey.json" with { type: "json" };
import { collectErrors, expectNoHydrationProblems, waitForHydration } from "./helpers";
import { startLocalEdge, type LocalEdge } from "./local-edge";

const PORT = Number(process.env.E2E_JOURNEY_PORT ?? 8096);
const RENDERER_PORT = process.env.E2E_JOURNEY_RENDERER_PORT ?? "3096";
const OIDC_ADDR = process.env.E2E_JOURNEY_OIDC_ADDR ?? "127.0.0.1:8097";
const ORIGIN = `http://127.0.0.1:${PORT}`;
// Navigations that wait on the server (password hashing, renders) on a shared, busy machine.
const SLOW = { timeout: 20_000 };
const EMAIL = "jane.doe@example.com"; // the local provider's user: Google sign-in finds this account

// The edge's data directory, shared with `edge mail` (the development outbox) below.
const edgeEnv: Record<string, string> = { DATA_DIR: "", DATABASE_URL: "", OMNIBUS_ENV: "development" };

/** The confirmation link of the newest message to `to` in the development outbox. */
function confirmationLink(edgeDir: string, to: string): string {
  const out = execFileSync(path.join(edgeDir, "bin", "edge"), ["mail", "-n", "1", "-to", to], { cwd: edgeDir, env: { ...process.env, ...edgeEnv }, encoding: "utf8" });
  return out.match(/https?:\/\/\S+verify-email\?token=\S+/)?.[0] ?? "";
}

test.describe("the merchant's journey", () => {
  test.describe.configure({ mode: "serial" });
  let edge: LocalEdge | undefined;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    edgeEnv.DATA_DIR = mkdtempSync(path.join(os.tmpdir(), "omnibus-e2e-journey-"));
    // As make run configures it: no Stripe key (test mode), the redirect flow only; the data
    // directory is the suite's own, so `edge mail` below reads this edge's outbox.
    edge = await startLocalEdge({
      port: PORT,
      rendererPort: RENDERER_PORT,
      oidcAddr: OIDC_ADDR,
      env: { STRIPE_SECRET_KEY: "", GOOGLE_REDIRECT_ONLY: "1", DATA_DIR: edgeEnv.DATA_DIR },
    });
  });

  test.afterAll(() => edge?.stop());

  test("register → welcome → plan → test-mode payment → merchant home → Google sign-in", async ({ page }) => {
    // Eleven page loads and three sign-ins (argon2id): generous on a shared, loaded machine.
    test.setTimeout(180_000);
    const errors = collectErrors(page);
    const outside: string[] = [];
    page.on("request", (r) => {
      const u = new URL(r.url());
      if (u.origin !== ORIGIN && `${u.host}` !== OIDC_ADDR && u.protocol !== "data:") outside.push(r.url());
    });

    // The landing page shows the Google button (a plain link: the local provider is not Google).
    await page.goto(`${ORIGIN}/`);
    await waitForHydration(page);
    await expect(page.locator('[data-google-signin="redirect"]').first()).toBeVisible();
    await page.getByRole("link", { name: "Get Started" }).first().click();
    await expect(page).toHaveURL(`${ORIGIN}/register`, SLOW);

    await waitForHydration(page);
    await page.getByLabel(auth.register.name).fill("Jane Doe");
    await page.getByLabel(auth.register.email).fill(EMAIL);
    await page.getByLabel(auth.register.password).fill("correct horse battery");
    await page.getByLabel(auth.register.storeName).fill("Jane Pet Shop");
    await expect(page.getByText(auth.messages.storeNameAvailable)).toBeVisible();
    await page.getByRole("button", { name: auth.register.submit }).click();

    // SPEC §4 still sends a new account to /contact-us, which now welcomes it and shows the next step.
    await expect(page).toHaveURL(`${ORIGIN}/contact-us`, SLOW);
    const welcome = page.locator("[data-welcome]");
    await expect(welcome.getByRole("heading")).toHaveText("Your store Jane Pet Shop is created");
    // Jane confirms her address from the e-mailed link (else a later Google sign-in with it
    // would take the unproved account back), and is told so where it lands.
    const edgeDir = path.join(import.meta.dirname, "..", "..", "edge");
    let link = "";
    await expect.poll(() => (link = confirmationLink(edgeDir, EMAIL)), SLOW).not.toBe("");
    await page.goto(link);
    await expect(page).toHaveURL(`${ORIGIN}/contact-us`, SLOW);
    await expect(welcome.locator("[data-verify]")).toContainText(journey.welcome.verified.replace("{email}", EMAIL));
    await waitForHydration(page);
    // A signed-in merchant's 'Get Started' leads to that next step too.
    await welcome.getByRole("link", { name: journey.home.choosePlan }).click();
    await expect(page).toHaveURL(`${ORIGIN}/choose-plan`, SLOW);

    await page.getByRole("button", { name: "Choose Growth" }).click();
    await expect(page).toHaveURL(/\/test-payment\?session=tm_/, SLOW);
    await expect(page.locator("[data-test-mode]")).toHaveText(journey.testPayment.badge);
    await page.getByRole("button", { name: "Pay ₹21,225.84 (test mode)" }).click();

    await expect(page).toHaveURL(/\/landing-page\?order=/, SLOW);
    // Just after her first payment Jane is welcomed, not welcomed back.
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Welcome to Jane Pet Shop");
    await expect(page.getByRole("link", { name: journey.home.admin })).toBeVisible();
    const status = await (await page.request.get(`${ORIGIN}/api/v1/oaccount/isloggedin`)).json();
    expect(status.data).toMatchObject({ isLoggedIn: true, omnicustomerStatus: "active", redirectTo: "/landing-page" });

    // Sign out, then in again with Google through the local provider: the same merchant, past onboarding.
    await waitForHydration(page);
    await page.getByRole("banner").getByRole("button", { name: auth.signOut.button }).click();
    await expect(page).toHaveURL(`${ORIGIN}/login?signedOut=1`, SLOW);
    // As everywhere in these tests: interact once hydrated. A click made as the router starts
    // (its history.replaceState) never reached the page once in CI, after scripts moved behind the first paint.
    await waitForHydration(page);
    await page.locator('[data-google-signin="redirect"]').first().click();
    await expect(page).toHaveURL(`${ORIGIN}/landing-page`, SLOW);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Welcome back to Jane Pet Shop");

    expect(outside, "requests outside the site and its sign-in provider").toEqual([]);
    expectNoHydrationProblems(errors);
  });

  test("PetPawlor: price and a buy button without JavaScript, ending on the order page", async ({ browser }) => {
    test.setTimeout(90_000);
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    // Signed out, the buy button says what is needed.
    await page.goto(`${ORIGIN}/petpawlor`);
    await expect(page.locator("[data-price]")).toHaveText("₹999");
    await page.getByRole("button", { name: journey.petpawlor.buy }).click();
    await expect(page).toHaveURL(`${ORIGIN}/petpawlor?error=signInRequired`, SLOW);
    await expect(page.getByRole("alert")).toHaveText(journey.messages.signInRequired);

    // Signed in (Google, no JavaScript needed), two locations.
    await page.goto(`${ORIGIN}/api/v1/oaccount/sso-redirect/google`);
    // Where the rules send jane: /landing-page after the journey above, /contact-us when this test runs alone.
    await expect(page).toHaveURL(/\/(landing-page|contact-us)$/, SLOW);
    await page.goto(`${ORIGIN}/petpawlor`);
    await page.getByLabel(journey.petpawlor.quantity).selectOption("2");
    await page.getByRole("button", { name: journey.petpawlor.buy }).click();
    await expect(page).toHaveURL(/\/test-payment\?session=tm_/, SLOW);
    await page.getByRole("button", { name: /^Pay ₹/ }).click();
    await expect(page).toHaveURL(/\/petpawlor-order-complete\?order=/, SLOW);
    await expect(page.getByRole("heading", { name: /You bought: 2 × PetPawlor licence/ })).toBeVisible();
    await expect(page.getByText(journey.orderComplete.paid)).toBeVisible();
    await context.close();
  });

  test("/sso-redirect opened directly says what happened and offers sign-in again", async ({ page }) => {
    await page.goto(`${ORIGIN}/sso-redirect`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(auth.ssoRedirect.reasons.none.heading);
    await expect(page.getByRole("link", { name: auth.ssoRedirect.again })).toBeVisible();
    await page.goto(`${ORIGIN}/sso-redirect?state=stale&code=x`);
    await expect(page).toHaveURL(`${ORIGIN}/sso-redirect?failed=expired`, SLOW);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(auth.ssoRedirect.reasons.expired.heading);
    await page.goto(`${ORIGIN}/sso-redirect?error=access_denied&state=x`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(auth.ssoRedirect.reasons.denied.heading);
  });
});
