// The studio's passkey sign-in in Chromium, with its virtual authenticator
// (the DevTools WebAuthn domain): a member granted by the operator's command
// signs in on the site with a password, which alone does not open the
// studio; adds a passkey on /staff/sign-in; reads the insights; signs out of
// the studio and back in with the passkey. An admin confirms with the
// passkey again (the re-check), grants a role on the Staff page with a
// reason, and the audit log lists it. Its own edge on localhost: a
// WebAuthn RP ID must be a domain name, and the shared e2e edge is on
// 127.0.0.1.
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { collectErrors, signUpHeaders } from "./helpers";
import { startLocalEdge, type LocalEdge } from "./local-edge";
import { grantStaff } from "./staff";

test.describe("studio sign-in with a passkey", () => {
  let edge: LocalEdge | undefined;
  let origin = "";
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "omnibus-e2e-studio-"));

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    edge = await startLocalEdge({ host: "localhost", env: { DATA_DIR: dataDir, LOG_LEVEL: "warn" } });
    origin = edge.origin;
  });
  test.afterAll(() => edge?.stop());

  test("a password alone does not open the studio; a passkey added on /staff/sign-in does, and signs in again", async ({ browser }) => {
    const ctx = await browser.newContext({ baseURL: origin });
    const page = await ctx.newPage();
    const errors = collectErrors(page);
    const cdp = await ctx.newCDPSession(page);
    await cdp.send("WebAuthn.enable");
    const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    });

    const email = `publisher-${Date.now()}@example.com`;
    const reg = await ctx.request.post("/api/v1/oaccount/register", {
      headers: signUpHeaders(origin),
      data: { name: "Pia Publisher", email, password: "correct horse battery", storeName: `pia-${Date.now()}` },
    });
    expect(reg.status()).toBe(201);
    grantStaff(dataDir, email, "publisher");

    // Signed in with a password only: the studio asks for the passkey.
    expect((await ctx.request.get("/api/v1/staff/me")).status()).toBe(401);
    await page.goto("/staff/insights");
    await page.waitForURL("**/staff/sign-in?next=%2Fstaff%2Finsights");
    await page.getByRole("button", { name: "Add a passkey" }).click();
    await page.waitForURL("**/staff/insights");
    await expect(page.getByRole("heading", { name: "Insights" })).toBeVisible();
    const me = await (await ctx.request.get("/api/v1/staff/me")).json();
    expect(me).toMatchObject({ email, role: "publisher", method: "passkey" });
    const creds = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
    expect(creds.credentials).toHaveLength(1);

    // Out of the studio (still signed in on the site), then back in with the passkey.
    await page.goto("/staff/sign-in?next=%2Fstaff%2Finsights");
    await page.getByRole("button", { name: "Sign out of the studio" }).click();
    await expect(page.getByRole("button", { name: "Sign in with your passkey" })).toBeVisible();
    expect((await ctx.request.get("/api/v1/staff/me")).status()).toBe(401);
    await page.getByRole("button", { name: "Sign in with your passkey" }).click();
    await page.waitForURL("**/staff/insights");
    await expect(page.getByRole("heading", { name: "Insights" })).toBeVisible();
    expect((await ctx.request.get("/api/v1/staff/me")).status()).toBe(200);
    const after = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
    expect(after.credentials[0].signCount).toBeGreaterThan(creds.credentials[0].signCount);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  test("an admin grants a role with a reason on the Staff page, and the audit log lists the grant", async ({ browser }) => {
    const stamp = Date.now();
    const admin = `admin-${stamp}@example.com`;
    const newcomer = `newcomer-${stamp}@example.com`;
    // The newcomer signs up on the site first (their own browser).
    const theirs = await browser.newContext({ baseURL: origin });
    const signUp = { headers: signUpHeaders(origin), data: { name: "Nia Newcomer", email: newcomer, password: "correct horse battery", storeName: `nia-${stamp}` } };
    expect((await theirs.request.post("/api/v1/oaccount/register", signUp)).status()).toBe(201);
    await theirs.close();

    const ctx = await browser.newContext({ baseURL: origin });
    const page = await ctx.newPage();
    const errors = collectErrors(page);
    const cdp = await ctx.newCDPSession(page);
    await cdp.send("WebAuthn.enable");
    await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    });
    const mine = { ...signUp, data: { ...signUp.data, name: "Ada Admin", email: admin, storeName: `ada-${stamp}` } };
    expect((await ctx.request.post("/api/v1/oaccount/register", mine)).status()).toBe(201);
    grantStaff(dataDir, admin, "admin");
    await page.goto("/staff/members");
    await page.waitForURL("**/staff/sign-in?next=%2Fstaff%2Fmembers");
    await page.getByRole("button", { name: "Add a passkey" }).click();
    await page.waitForURL("**/staff/members");
    // The re-check a refused change links to: the passkey again, then back.
    await page.goto("/staff/sign-in?next=%2Fstaff%2Fmembers");
    await page.getByRole("button", { name: "Confirm it is you with your passkey" }).click();
    await page.waitForURL("**/staff/members");

    const grant = page.getByRole("form", { name: "Grant a role" });
    await grant.getByLabel("E-mail address").fill(newcomer);
    await grant.getByLabel("Role").selectOption("viewer");
    await grant.getByLabel("Reason (kept in the audit log)").fill("joins the support team");
    await grant.getByRole("button", { name: "Grant role" }).click();
    await expect(page.getByText(`${newcomer} now has the role you chose.`)).toBeVisible();
    await expect(page.locator(`tr[data-member="${newcomer}"]`)).toContainText("viewer");

    await page.getByRole("navigation", { name: "Studio" }).getByRole("link", { name: "Audit log" }).click();
    const entry = page.locator("tr[data-entry='role.granted']", { hasText: newcomer });
    await expect(entry).toContainText("joins the support team");
    await expect(entry).toContainText(admin);
    expect(errors).toEqual([]);
    await ctx.close();
  });
});
