// Contact form and content pages in a real browser against the edge: the form
// with and without JavaScript, inline validation, an article page, and real
// 404s for unknown article slugs.
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { collectErrors, expectNoHydrationProblems, signUpHeaders, waitForHydration } from "./helpers";
import { startLocalEdge, type LocalEdge } from "./local-edge";
import { grantStaff, studioByTOTP } from "./staff";

const contact = JSON.parse(readFileSync(new URL("../../shared/content/contact.json", import.meta.url), "utf8")) as {
  submitLabel: string;
  sendingLabel: string;
  outcomes: Record<string, string>;
  fields: Record<string, { error: string }>;
  pages: Record<string, { heading: string; messageLabel: string }>;
};

test.describe("contact form", () => {
  test("sends with JavaScript: loading state, then the success message, without leaving the page", async ({ page }) => {
    const errors = collectErrors(page);
    await page.goto("/contact-us");
    await waitForHydration(page);
    await page.getByLabel("Your name").fill("Lakshmi R.");
    await page.getByLabel("Work email").fill("lakshmi@kaverihandlooms.in");
    await page.getByLabel(/Business or store name/).fill("Kaveri Handlooms");
    await page.getByLabel(contact.pages["contact-us"].messageLabel).fill("We run two stores in Mysuru and sell on a marketplace.");

    // Hold the request until the loading state has been seen.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/v1/omnibus/contact-us", async (route) => {
      await held;
      await route.continue();
    });
    const posted = page.waitForRequest((r) => r.url().endsWith("/api/v1/omnibus/contact-us") && r.method() === "POST");
    await page.getByRole("button", { name: contact.submitLabel }).click();
    await expect(page.getByRole("button", { name: contact.sendingLabel })).toBeDisabled();
    release();
    const request = await posted;
    expect(request.headers()["content-type"]).toContain("application/json");
    expect(JSON.parse(request.postData() ?? "{}")).toMatchObject({ topic: "contact-us", name: "Lakshmi R.", company: "Kaveri Handlooms" });

    await expect(page.getByRole("status")).toHaveText(contact.outcomes.sent);
    await expect(page).toHaveURL(/\/contact-us$/);
    await expect(page.getByLabel("Your name")).toHaveValue("");
    expectNoHydrationProblems(errors);
  });

  test("sends without JavaScript: the browser posts the form and the page shows the outcome", async ({ browser, baseURL }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
    const page = await context.newPage();
    await page.goto("/custom-logo");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(contact.pages["custom-logo"].heading);
    await page.getByLabel("Your name").fill("Meera");
    await page.getByLabel("Work email").fill("meera@example.in");
    await page.getByLabel(contact.pages["custom-logo"].messageLabel).fill("A logo for my bakery, Crumbs, in warm colours.");
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === "POST" && r.url().endsWith("/custom-logo")),
      page.getByRole("button", { name: contact.submitLabel }).click(),
    ]);
    expect(response.status()).toBe(303);
    await expect(page).toHaveURL(/\/custom-logo\?outcome=sent#contact-form$/);
    await expect(page.getByRole("status")).toHaveText(contact.outcomes.sent);
    await context.close();
  });

  // Values that pass the browser's own checks (required, type=email) but not the edge's.
  async function fillRefused(page: Page) {
    await page.getByLabel("Your name").fill("   ");
    await page.getByLabel("Work email").fill("arjun@localhost"); // no dot in the domain
    await page.getByLabel(/Business or store name/).fill("Arjun Textiles");
    await page.getByLabel(contact.pages["contact-us"].messageLabel).fill("Do you support GST e-invoicing?\nWe file monthly.");
  }

  test("without JavaScript, a refused post comes back at its address with every value and every field's error", async ({ browser, baseURL }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
    const page = await context.newPage();
    await page.goto("/contact-us");
    await fillRefused(page);
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === "POST"),
      page.getByRole("button", { name: contact.submitLabel }).click(),
    ]);
    expect(response.status()).toBe(400);
    await expect(page).toHaveURL(/\/contact-us$/);
    await expect(page.getByLabel("Work email")).toHaveValue("arjun@localhost");
    await expect(page.getByLabel(/Business or store name/)).toHaveValue("Arjun Textiles");
    await expect(page.getByLabel(contact.pages["contact-us"].messageLabel)).toHaveValue("Do you support GST e-invoicing?\nWe file monthly.");
    for (const [label, field] of [["Your name", "name"], ["Work email", "email"]] as const) {
      await expect(page.getByLabel(label)).toHaveAttribute("aria-invalid", "true");
      await expect(page.getByLabel(label)).toHaveAccessibleDescription(contact.fields[field].error);
    }
    await expect(page.getByLabel("Your name")).toBeFocused();
    await context.close();
  });

  test("a page refused before its script arrived hydrates without a mismatch, and the form then sends with JavaScript", async ({ page }) => {
    // A slow network: the first page's scripts never arrive, so the browser posts the form itself.
    await page.route(/\/assets\/.*\.js$/, (route) => route.abort());
    await page.goto("/contact-us");
    await fillRefused(page);
    await page.unroute(/\/assets\/.*\.js$/);
    const errors = collectErrors(page);
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === "POST"),
      page.getByRole("button", { name: contact.submitLabel }).click(),
    ]);
    expect(response.status()).toBe(400);
    const before = errors.length; // the first document's failed script loads, if any were late
    await waitForHydration(page);
    await expect(page.getByLabel("Work email")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel(contact.pages["contact-us"].messageLabel)).toHaveValue("Do you support GST e-invoicing?\nWe file monthly.");

    // Now with JavaScript: fixed, the form sends JSON with fetch and stays on the page.
    await page.getByLabel("Your name").fill("Arjun");
    await page.getByLabel("Work email").fill("arjun@example.in");
    const [sent] = await Promise.all([
      page.waitForRequest((r) => r.url().endsWith("/api/v1/omnibus/contact-us") && r.method() === "POST"),
      page.getByRole("button", { name: contact.submitLabel }).click(),
    ]);
    expect(sent.headers()["content-type"]).toBe("application/json");
    await expect(page.getByRole("status")).toHaveText(contact.outcomes.sent);
    await expect(page).toHaveURL(/\/contact-us$/);
    expectNoHydrationProblems(errors.slice(before));
  });

  test("with JavaScript, shows inline validation errors and sends nothing", async ({ page }) => {
    await page.goto("/data-entry");
    await waitForHydration(page);
    let posted = false;
    page.on("request", (r) => {
      if (r.url().includes("/api/v1/omnibus/contact-us")) posted = true;
    });
    await page.getByLabel("Work email").fill("not-an-address");
    await page.getByLabel("Work email").blur();
    await expect(page.getByText(contact.fields.email.error)).toBeVisible();
    await page.getByRole("button", { name: contact.submitLabel }).click();
    await expect(page.getByText(contact.fields.name.error)).toBeVisible();
    await expect(page.getByLabel("Your name")).toBeFocused();
    await expect(page.getByLabel("Work email")).toHaveAttribute("aria-invalid", "true");
    expect(posted).toBe(false);
  });
});

test.describe("articles", () => {
  test("a help article renders on the server with its own title and description", async ({ page, request }) => {
    const html = await (await request.get("/help/category/article/success-story-kaveri-handlooms")).text();
    expect(html).toContain("<title>How Kaveri Handlooms went from one shop to every channel</title>");
    expect(html).toMatch(/<h2 id="the-problem-three-stock-counts">/);

    const errors = collectErrors(page);
    await page.goto("/blog/article/festive-season-checklist");
    await waitForHydration(page);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("A festive-season checklist for online sellers");
    await expect(page.getByRole("heading", { level: 2, name: "Four weeks before" })).toBeVisible();
    expectNoHydrationProblems(errors);
  });

  test("the blog index links to its articles, which load on click", async ({ page }) => {
    await page.goto("/blog");
    await waitForHydration(page);
    await page.getByRole("link", { name: "Goal-based advertising, explained for busy merchants", exact: true }).click();
    await expect(page).toHaveURL(/\/blog\/article\/goal-based-advertising$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Goal-based advertising, explained for busy merchants");
  });

  test("client-side navigation loads the content pages' data", async ({ page }) => {
    const errors = collectErrors(page);
    await page.goto("/blog");
    await waitForHydration(page);
    const documents: string[] = [];
    page.on("request", (r) => {
      if (r.resourceType() === "document") documents.push(r.url());
    });
    await page.getByRole("banner").getByRole("link", { name: "Pricing" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Plans that grow with your business");
    await page.getByRole("banner").getByRole("link", { name: "Contact" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(contact.pages["contact-us"].heading);
    await expect(page.getByLabel("Work email")).toBeVisible();
    expect(documents, "no full page loads").toEqual([]);
    expectNoHydrationProblems(errors);
  });

  for (const path of ["/blog/article/no-such-article", "/help/category/article/no-such-article", "/help/category/no-such-topic"]) {
    test(`an unknown slug is a real 404 with the not-found content: ${path}`, async ({ page }) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(404);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page not found");
      await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");
    });
  }

  test("the article API answers JSON and 404s unknown slugs", async ({ request }) => {
    const ok = await request.get("/api/v1/help/slug/success-story-kaveri-handlooms");
    expect(ok.status()).toBe(200);
    expect((await ok.json()).data.category).toBe("success-stories");
    const missing = await request.get("/api/v1/omnibus-blog/slug/no-such-article");
    expect(missing.status()).toBe(404);
    expect(await missing.json()).toEqual({ errorDetail: "Article not found" });
  });
});

test.describe("content that agrees with itself", () => {
  test("the footer names Forge for what it is, a developer platform", async ({ page }) => {
    await page.goto("/");
    const link = page.getByRole("navigation", { name: "Footer" }).getByRole("link", { name: /Forge/ });
    await expect(link).toHaveText("Forge for developers");
    await expect(link).toHaveAttribute("href", "/forge");
  });

  test("'Read the partner FAQ' leads to partner questions", async ({ page }) => {
    await page.goto("/partner-with-us");
    await page.getByRole("link", { name: "Read the partner FAQ" }).click();
    await expect(page).toHaveURL("/help#partner-faq");
    await expect(page.locator("#partner-faq")).toContainText("commission");
  });

  test("every University course links somewhere, and none promises lessons it does not link", async ({ page }) => {
    await page.goto("/omnibus-university");
    const courses = page.locator("main li:has(h3)");
    await expect(courses).toHaveCount(6);
    for (const course of await courses.all()) await expect(course.getByRole("link")).toHaveCount(1);
    await expect(page.locator("main")).not.toContainText(/five lessons/i);
  });

  test("the help centre lists all guides newest first", async ({ page }) => {
    await page.goto("/help-centre");
    const section = page.locator("section", { has: page.getByRole("heading", { name: "All guides" }) });
    const dates = await section.locator("time").evaluateAll((els) => els.map((el) => el.getAttribute("datetime")!));
    expect(dates.length).toBeGreaterThan(1);
    expect(dates).toEqual([...dates].sort().reverse());
  });
});

// A blog longer than its first page: the older articles are a link away,
// at a real address the server renders, so a reader without JavaScript (and
// a crawler) reaches every article. Its own edge (a fresh SQLite database):
// the posts it publishes would push the shared edge's articles off /blog.
test.describe("a blog of more than one page", () => {
  let edge: LocalEdge | undefined;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "omnibus-e2e-pages-"));
  const posts = 25; // one more than /blog's first page (edge content.BlogPageSize)

  test.beforeAll(async ({ browser }) => {
    test.setTimeout(240_000);
    edge = await startLocalEdge({ env: { DATA_DIR: dataDir, LOG_LEVEL: "warn", CACHE_WARM: "false" } });
    const origin = edge.origin;
    await expect.poll(async () => (await fetch(`${origin}/blog`)).status, { timeout: 60_000 }).toBe(200);
    const ctx = await browser.newContext({ baseURL: origin });
    const email = `publisher-${Date.now()}@example.com`;
    const reg = await ctx.request.post("/api/v1/oaccount/register", {
      headers: signUpHeaders(origin),
      data: { name: "Ana Lima", email, password: "correct horse battery", storeName: `pages-${Date.now()}` },
    });
    expect(reg.status()).toBe(201);
    grantStaff(dataDir, email, "publisher", "--allow-totp");
    await studioByTOTP(ctx.request, origin);
    const headers = { Origin: origin, "Content-Type": "application/json" };
    for (let i = 0; i < posts; i++) {
      const n = String(i).padStart(2, "0");
      const made = await ctx.request.post("/api/v1/staff/content", {
        headers,
        data: { type: "blog", slug: `paged-${n}`, body: "Text.\n", fields: { title: `Paged post ${n}`, description: "A post.", date: `2031-01-${String(i + 1).padStart(2, "0")}`, category: "Growth" } },
      });
      expect(made.status(), await made.text()).toBe(201);
      const { data } = await made.json();
      const pub = await ctx.request.post(`/api/v1/staff/content/${data.id}/publish`, { headers, data: { revisionId: data.revision.id } });
      expect(pub.status(), await pub.text()).toBe(200);
    }
    await ctx.close();
  });
  test.afterAll(() => edge?.stop());

  test("without JavaScript, “Older articles” leads to the older posts and “Newer articles” back", async ({ browser }) => {
    const ctx = await browser.newContext({ baseURL: edge!.origin, javaScriptEnabled: false });
    const page = await ctx.newPage();
    await page.goto("/blog");
    await expect(page.getByRole("link", { name: "Paged post 24", exact: true })).toBeVisible();
    await expect(page.getByRole("link", { name: "Paged post 00", exact: true })).toHaveCount(0);
    await page.getByRole("link", { name: /Older articles/ }).click();
    await expect(page).toHaveURL(/\/blog\?page=2$/);
    await expect(page.getByRole("link", { name: "Paged post 00", exact: true })).toBeVisible();
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", /\/blog\?page=2$/);
    await page.getByRole("link", { name: /Newer articles/ }).click();
    await expect(page).toHaveURL(/\/blog$/);
    await expect(page.getByRole("link", { name: "Paged post 24", exact: true })).toBeVisible();
    const past = await page.goto("/blog?page=99");
    expect(past?.status(), "a page past the last").toBe(404);
    await ctx.close();
  });
});
