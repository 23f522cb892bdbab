// A marketer's whole publishing flow in Chromium, the studio's own buttons
// throughout: a publisher signs in with a passkey, writes a new blog article
// with an image as a draft (not public), shares a preview a visitor opens
// without cookies, schedules it a few seconds ahead (then it is on /blog,
// in the feed and the sitemap, and served from the page cache), renames its
// slug (the old address moves permanently), unpublishes it (gone) and rolls
// it back to an earlier revision. The same editor without JavaScript saves
// and previews as a plain form. Its own edge on localhost, as
// e2e/studio-passkey.spec.ts: a passkey's RP ID must be a domain name.
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { collectErrors, settle, signUpHeaders } from "./helpers";
import { startLocalEdge, type LocalEdge } from "./local-edge";
import { grantStaff } from "./staff";

// A small image (one width to encode): the upload re-encodes it, slowly on a busy machine.
const image = path.join(import.meta.dirname, "..", "public", "icons", "icon-192.png");
const alt = "The Omnibus logo";
// A change to what is live answers once the edge has re-rendered its pages
// into the cache (up to PUBLISH_WAIT, 3 s by default), longer than
// an assertion's 5 s on a busy machine.
const publishing = { timeout: 15_000 };

test.describe("a marketer writes, previews, schedules, renames, unpublishes and rolls back a blog article", () => {
  let edge: LocalEdge | undefined;
  let origin = "";
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "omnibus-e2e-marketer-"));

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    edge = await startLocalEdge({ host: "localhost", env: { DATA_DIR: dataDir, LOG_LEVEL: "warn" } });
    origin = edge.origin;
  });
  test.afterAll(() => edge?.stop());

  test("from a draft with an image to a scheduled article, renamed, unpublished and rolled back; the no-JS editor saves and previews", async ({ browser, playwright }) => {
    // The scheduled publication is waited for (about 20 s): the rest takes as long again.
    test.setTimeout(120_000);
    const stamp = Date.now();
    const slug = `spring-launch-${stamp}`;
    const title = `Our spring launch ${stamp}`;
    const article = `/blog/article/${slug}`;
    // Times in UTC, as the edge stores them: the studio's "Publish at" is the browser's local time.
    const ctx = await browser.newContext({ baseURL: origin, timezoneId: "UTC" });
    const page = await ctx.newPage();
    const errors = collectErrors(page);
    // A visitor: no cookies, never signed in.
    const visitor: APIRequestContext = await playwright.request.newContext({ baseURL: origin });

    await test.step("a publisher adds a passkey and reaches the studio", async () => {
      const cdp = await ctx.newCDPSession(page);
      await cdp.send("WebAuthn.enable");
      await cdp.send("WebAuthn.addVirtualAuthenticator", {
        options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
      });
      const email = `marketer-${stamp}@example.com`;
      const reg = await ctx.request.post("/api/v1/oaccount/register", {
        headers: signUpHeaders(origin),
        data: { name: "Maya Marketer", email, password: "correct horse battery", storeName: `maya-${stamp}` },
      });
      expect(reg.status()).toBe(201);
      grantStaff(dataDir, email, "publisher");
      await page.goto("/staff");
      await page.waitForURL("**/staff/sign-in?next=%2Fstaff");
      await page.getByRole("button", { name: "Add a passkey" }).click();
      await page.waitForURL((url) => url.pathname === "/staff");
      await expect(page.getByRole("heading", { name: "Everything on the site" })).toBeVisible();
    });

    await test.step("writes a new blog article with an image, saved as a draft", async () => {
      await page.getByRole("navigation", { name: "Studio" }).getByRole("link", { name: "New" }).click();
      await page.getByRole("link", { name: "Blog article" }).click();
      await expect(page.getByRole("heading", { name: "New blog article" })).toBeVisible();
      await page.getByLabel("Slug").fill(slug);
      await page.getByLabel("Title", { exact: true }).fill(title);
      await page.getByLabel("Description", { exact: true }).fill("Everything new in Omnibus this spring, in one page.");
      await page.getByLabel("Date", { exact: true }).fill(new Date().toISOString().slice(0, 10));
      await page.getByLabel("Category", { exact: true }).fill("Product");
      // The body: CodeMirror once its chunk is in, the plain textarea before.
      const body = page.locator(".cm-content");
      await expect(body).toBeVisible();
      await body.fill("Spring brings three new things to every store.\n\n");

      // The image control refuses an image without alt text, then inserts the uploaded one.
      const upload = page.locator("[data-image-upload]");
      await upload.getByLabel(/^Image/).setInputFiles(image);
      await upload.getByRole("button", { name: "Upload and insert" }).click();
      await expect(upload.getByRole("alert")).toContainText("alt text");
      await upload.getByLabel("Alt text (what the image shows)").fill(alt);
      await upload.getByRole("button", { name: "Upload and insert" }).click();
      await expect(body).toContainText(`![${alt}](`, { timeout: 30_000 });

      await page.getByRole("button", { name: "Save draft" }).click();
      await page.waitForURL("**/staff/item?id=*&saved=1");
      await expect(page.getByText("Saved as revision 1. Nothing is published until you publish it.")).toBeVisible();
      await expect(page.locator("[data-state]")).toHaveAttribute("data-state", "draft");

      // Saving did not publish: the blog does not list it, its address is not found.
      expect(await (await visitor.get("/blog")).text()).not.toContain(title);
      expect((await visitor.get(article)).status()).toBe(404);
    });

    await test.step("shares a preview a visitor opens without cookies: banner, noindex, the image", async () => {
      await page.getByRole("button", { name: "Share preview" }).click();
      const link = page.locator("[data-preview-url] a");
      await expect(link).toHaveAttribute("href", /\/preview\//);
      const url = (await link.getAttribute("href"))!;
      const fresh = await browser.newContext();
      expect(await fresh.cookies()).toEqual([]);
      const preview = await fresh.newPage();
      const previewErrors = collectErrors(preview);
      const res = await preview.goto(url);
      expect(res?.status()).toBe(200);
      // Once its scripts and stylesheet are in: the draft stays (it is not swapped for the error page).
      await settle(preview);
      await expect(preview.getByRole("status").filter({ hasText: "Preview: not published" })).toBeVisible();
      await expect(preview.getByRole("heading", { level: 1, name: title })).toBeVisible();
      const metaRobots = await preview.locator('meta[name="robots"]').evaluateAll((els) => els.map((el) => el.getAttribute("content")).join(" "));
      expect(`${res?.headers()["x-robots-tag"] ?? ""} ${metaRobots}`).toContain("noindex");
      const img = preview.getByRole("img", { name: alt });
      await img.scrollIntoViewIfNeeded();
      await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBeGreaterThan(0);
      expect(previewErrors).toEqual([]);
      await fresh.close();
    });

    await test.step("schedules it a few seconds ahead: then it is on the blog, in the feed and the sitemap, and cached", async () => {
      // A whole second: the field takes seconds, not their fractions.
      const at = new Date(Math.ceil((Date.now() + 20_000) / 1000) * 1000);
      await page.getByLabel("Publish at (your time)").fill(at.toISOString().slice(0, 19));
      await page.getByRole("button", { name: "Schedule", exact: true }).click();
      await expect(page.getByText(/^Scheduled for /)).toBeVisible(publishing);
      await expect(page.locator("[data-state]")).toHaveAttribute("data-state", "scheduled");
      expect((await visitor.get(article)).status(), "not before its time").toBe(404);

      await expect.poll(async () => (await visitor.get(article)).status(), { timeout: 60_000 }).toBe(200);
      expect(Date.now()).toBeGreaterThanOrEqual(at.getTime());
      await expect.poll(async () => (await (await visitor.get("/blog")).text()).includes(title)).toBe(true);
      expect(await (await visitor.get("/rss.xml")).text()).toContain(`${origin}${article}`);
      expect(await (await visitor.get("/sitemap.xml")).text()).toContain(`${origin}${article}`);
      // A preview card drawn after the publish's 2 s wait (a busy machine) purges the page once
      // more when it is done (decision 0066): the page names the drawn card once that is over.
      await expect.poll(async () => /og:image"[^>]*\/media\/og\//.test(await (await visitor.get(article)).text()), { timeout: 60_000 }).toBe(true);
      // The second request at the latest is served from the page cache.
      await visitor.get(article);
      expect((await visitor.get(article)).headers()["x-cache"]).toBe("HIT");
    });

    const renamed = `${slug}-renamed`;
    await test.step("renames its slug and publishes: the old address moves permanently to the new one", async () => {
      // The slug is typed before the editor hydrates (its full stylesheet held back: React starts
      // only once it has loaded). The field then still showed it, but the editor's state kept the
      // old slug, and the save sent that: "Published.", and no rename.
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      const stylesheet = /\/assets\/app-[^/]+\.css$/;
      await page.route(stylesheet, async (route) => {
        await held;
        await route.continue();
      });
      // Not until "load": a stylesheet linked before it holds the load event, and this one is held.
      await page.reload({ waitUntil: "domcontentloaded" });
      await expect(page.locator("[data-state]")).toHaveAttribute("data-state", "published");
      const slugField = page.getByLabel("Slug");
      expect(await slugField.evaluate((el) => Object.keys(el).some((key) => key.startsWith("__reactProps"))), "not hydrated yet").toBe(false);
      await slugField.fill(renamed);
      await page.getByLabel("Note (optional: what changed)").fill("a shorter address");
      release();
      await page.waitForFunction(() => Object.keys(document.querySelector('input[name="slug"]')!).some((key) => key.startsWith("__reactProps")));
      await page.unroute(stylesheet);
      await expect(slugField).toHaveValue(renamed);
      await page.getByRole("button", { name: "Save draft" }).click();
      // The editor's own notice (the page's, of its ?saved=1 address, says the same once reloaded).
      await expect(page.getByRole("form", { name: "Blog article" }).getByText("Saved as revision 2. Nothing is published until you publish it.")).toBeVisible();
      await page.getByRole("button", { name: "Publish revision 2 now" }).click();
      await expect(page.getByText("Published.", { exact: true })).toBeVisible(publishing);
      const old = await visitor.get(article, { maxRedirects: 0 });
      expect(old.status()).toBe(301);
      expect(new URL(old.headers()["location"], origin).pathname).toBe(`/blog/article/${renamed}`);
      expect((await visitor.get(`/blog/article/${renamed}`)).status()).toBe(200);
    });

    await test.step("unpublishes it: gone", async () => {
      await page.getByRole("button", { name: "Unpublish" }).click();
      await expect(page.getByText("Unpublished: the page now answers 410 Gone.")).toBeVisible(publishing);
      expect((await visitor.get(`/blog/article/${renamed}`)).status()).toBe(410);
    });

    await test.step("rolls back to the first revision: a new revision in the history", async () => {
      const history = page.locator("[data-revisions] > li");
      await expect(history).toHaveCount(2);
      await history.filter({ hasText: "#1" }).getByRole("button", { name: "Roll back to this" }).click();
      await expect(page.getByText("Rolled back: revision 1's text is the new latest draft. Publish it to make it live.")).toBeVisible(publishing);
      await expect(history).toHaveCount(3);
      await expect(history.filter({ hasText: "#3" })).toHaveCount(1);
      // The editor holds revision 1's text again, its slug among it.
      await page.reload();
      await expect(page.getByLabel("Slug")).toHaveValue(slug);
    });
    expect(errors).toEqual([]);

    await test.step("without JavaScript the editor is a plain form: Save, then Save and preview", async () => {
      const noJS = await browser.newContext({ baseURL: origin, javaScriptEnabled: false, storageState: await ctx.storageState() });
      const plain = await noJS.newPage();
      await plain.goto("/staff/new?type=blog");
      const other = `no-script-${stamp}`;
      await plain.getByLabel("Slug").fill(other);
      await plain.getByLabel("Title", { exact: true }).fill(`Written without scripts ${stamp}`);
      await plain.getByLabel("Description", { exact: true }).fill("The studio's plain form at work.");
      await plain.getByLabel("Date", { exact: true }).fill(new Date().toISOString().slice(0, 10));
      await plain.getByLabel("Category", { exact: true }).fill("Product");
      await plain.getByLabel("Body (Markdown)").fill("A first paragraph.");
      await plain.getByRole("button", { name: "Save draft" }).click();
      await plain.waitForURL("**/staff/item?id=*&saved=1");
      await expect(plain.getByText("Saved as revision 1. Nothing is published until you publish it.")).toBeVisible();

      await plain.getByLabel("Body (Markdown)").fill("A first paragraph, and a second thought.");
      await plain.getByRole("button", { name: "Save and preview" }).click();
      await plain.waitForURL("**/staff/item?id=*&saved=preview");
      await expect(plain.getByText("Saved as revision 2. Nothing is published until you publish it.")).toBeVisible();
      const shown = plain.getByRole("region", { name: "Preview" });
      await expect(shown).toContainText("Preview: not published");
      await expect(shown).toContainText("A first paragraph, and a second thought.");
      expect((await visitor.get(`/blog/article/${other}`)).status()).toBe(404);
      await noJS.close();
    });
    await visitor.dispose();
    await ctx.close();
  });
});
