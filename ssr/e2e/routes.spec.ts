import { expect, test } from "@playwright/test";
import { examplePath, notFound, routes } from "./helpers";

const unescape = (html: string) =>
  html.replace(/&amp;/g, "&").replace(/&#x27;|&#39;/g, "'").replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&gt;/g, ">");

// Pages that need a signed-in merchant or a payment in progress, and what they answer opened bare:
// choosing a plan sends an anonymous visitor to create a store; the test-mode payment page without
// its ?session= is a payment that does not exist; the reset page without a valid link says so on
// the page that sends a new one, before any form; the studio hides behind the 404 page.
const bare: Record<string, { status: number; location?: string }> = {
  "choose-plan": { status: 302, location: "/register" },
  "reset-password": { status: 303, location: "/forgot-password?error=resetInvalid" },
  "test-payment": { status: 404 },
  // The studio is the site's 404 to anyone without a studio session (staff are signed in with a second factor).
  studio: { status: 404 },
  "studio-new": { status: 404 },
  "studio-item": { status: 404 },
  "studio-members": { status: 404 },
  "studio-audit": { status: 404 },
};

test("every route of the table answers 200 with its title, layout and server-rendered heading", async ({ request }) => {
  test.setTimeout(120_000); // ~80 routes, one after another
  for (const entry of routes) {
    const path = examplePath(entry.path);
    const want = bare[entry.id];
    if (want) {
      const response = await request.get(path, { maxRedirects: 0 });
      expect(response.status(), path).toBe(want.status);
      if (want.location) expect(response.headers().location, path).toBe(want.location);
      continue;
    }
    const response = await request.get(path);
    expect(response.status(), path).toBe(200);
    const html = await response.text();
    const title = unescape(/<title>([^<]*)<\/title>/.exec(html)?.[1] ?? "");
    // Articles and help topics are titled by their content, with the site's name after it where the
    // whole fits search results' 60 characters (lib/meta.ts fitTitle); every other page by its table entry.
    if (entry.path.includes(":")) expect(/ — Omnibus/.test(title) || `${title} — Omnibus Help`.length > 60, `${path}: ${title}`).toBe(true);
    else expect(title, path).toBe(entry.title);
    const heading = /<h1(?:\s[^>]*)?>([\s\S]*?)<\/h1>/.exec(html)?.[1].replace(/<[^>]+>/g, "").trim();
    expect(heading, `${path} has a server-rendered <h1>`).toBeTruthy();
    expect(html, path).toContain(`data-layout="${entry.layout}"`);
  }
});

test("the not-found page has status 404 and the minimal layout", async ({ page }) => {
  const response = await page.goto("/this/page/does-not-exist");
  expect(response?.status()).toBe(404);
  await expect(page).toHaveTitle(notFound.title);
  await expect(page.locator("[data-layout]")).toHaveAttribute("data-layout", "minimal");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page not found");
  // Minimal layout: brand and theme switcher, no site links.
  await expect(page.getByRole("link", { name: "Pricing" })).toHaveCount(0);
});

test("crawlers get the deferred feature list inside the document", async ({ request }) => {
  const html = await (
    await request.get("/features", { headers: { "user-agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" } })
  ).text();
  expect(html).toContain("One-click shipping");
  expect(html).not.toContain('aria-label="Loading features"');
});

test("pages carry a canonical link and social card tags", async ({ request, baseURL }) => {
  const html = await (await request.get("/contact-us")).text();
  expect(html).toContain(`<link rel="canonical" href="${baseURL}/contact-us"/>`);
  expect(html).toContain(`<meta property="og:url" content="${baseURL}/contact-us"/>`);
  expect(html).toContain('<meta name="twitter:card" content="summary_large_image"/>');
  // Its own preview image, drawn at build time and named by its hash (e2e/seo.spec.ts reads every page's).
  const src = /<meta property="og:image" content="([^"]+)"/.exec(html)?.[1] ?? "";
  expect(src).toMatch(new RegExp(`^${baseURL}/assets/og/contact-us-[0-9a-f]{10}\\.jpg$`));
  const image = await request.get(src);
  expect(image.status()).toBe(200);
  expect(image.headers()["content-type"]).toBe("image/jpeg");
  expect(image.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
});
