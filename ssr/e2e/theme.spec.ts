import { expect, test, type Page } from "@playwright/test";
import names from "@omnibus/shared/http.json" with { type: "json" };
import { waitForHydration } from "./helpers";

// Records whether <html> has the dark class at the first frame (rAF runs
// right before the first paint, once the document is no longer render-blocked).
async function recordFirstFrame(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { __firstFrameDark?: boolean };
    requestAnimationFrame(() => {
      w.__firstFrameDark = document.documentElement.classList.contains("dark");
    });
  });
}

async function firstFrameDark(page: Page) {
  await page.waitForFunction(() => "__firstFrameDark" in window);
  return page.evaluate(() => (window as unknown as { __firstFrameDark: boolean }).__firstFrameDark);
}

test.describe("dark class before the first paint", () => {
  test("system preference dark", async ({ page }) => {
    await page.emulateMedia({ colorScheme: "dark" });
    await recordFirstFrame(page);
    await page.goto("/");
    expect(await firstFrameDark(page)).toBe(true);
  });

  // A choice sets the theme cookie and localStorage together (lib/theme.ts); the
  // first frame reads the cookie alone, as opening the origin's storage would
  // delay every first visit's first paint.
  test("chosen dark on a light system", async ({ page, baseURL }) => {
    await page.emulateMedia({ colorScheme: "light" });
    await page.context().addCookies([{ name: names.themeCookie, value: "dark", url: baseURL! }]);
    await page.addInitScript(() => localStorage.setItem("color-schema", "dark"));
    await recordFirstFrame(page);
    await page.goto("/contact-us");
    expect(await firstFrameDark(page)).toBe(true);
  });

  test("chosen light on a dark system", async ({ page, baseURL }) => {
    await page.emulateMedia({ colorScheme: "dark" });
    await page.context().addCookies([{ name: names.themeCookie, value: "light", url: baseURL! }]);
    await page.addInitScript(() => localStorage.setItem("color-schema", "light"));
    await recordFirstFrame(page);
    await page.goto("/");
    expect(await firstFrameDark(page)).toBe(false);
  });

  test("a stored preference whose cookie is gone applies after the first frame, and writes the cookie back for the next page", async ({ page }) => {
    await page.emulateMedia({ colorScheme: "light" });
    await page.addInitScript(() => localStorage.setItem("color-schema", "dark"));
    await page.goto("/contact-us");
    await expect(page.locator("html")).toHaveClass(/\bdark\b/);
    const html = await (await page.request.get("/")).text();
    expect(html).toMatch(/<html lang="en-US" class="dark">/);
  });

  test("the server's HTML carries no theme class: the inline script decides", async ({ request }) => {
    const html = await (await request.get("/")).text();
    expect(html).toMatch(/<html lang="en-US">/);
    // A parser-blocking inline script in <head>: it runs before any of <body> is parsed, so
    // nothing can be painted without the class (the first-frame tests above check the effect).
    const script = html.indexOf('localStorage.getItem("color-schema")');
    expect(script).toBeGreaterThan(html.indexOf("<head>"));
    expect(script).toBeLessThan(html.indexOf("</head>"));
    expect(html.slice(html.lastIndexOf("<script", script), script)).not.toMatch(/\b(async|defer|src=)/);
  });
});

// A slow phone's visitor taps Dark while the page's scripts are still on their way (held here
// until the tap is answered): the page darkens where it is, with the Dark button pressed, and
// is not left for the edge's round trip (the form's post without JavaScript) and a reload.
test("a theme tap before the page's scripts have run switches the theme in place, without reloading the page", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "light" });
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/.+\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  const posts: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST") posts.push(request.url());
  });
  await page.goto("/", { waitUntil: "domcontentloaded" });
  // The same document throughout: a reload would drop this mark.
  await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
  const dark = page.getByRole("banner").getByRole("group", { name: "Colour theme" }).first().getByRole("button", { name: "Dark" });
  await dark.click();
  await expect(page.locator("html")).toHaveClass(/\bdark\b/);
  await expect(dark).toHaveAttribute("aria-pressed", "true");
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  expect(posts).toEqual([]);
  // The scripts arrive, React hydrates: the choice holds, and the server renders it next time.
  release();
  await waitForHydration(page);
  await expect(page.locator("html")).toHaveClass(/\bdark\b/);
  await expect(dark).toHaveAttribute("aria-pressed", "true");
  const html = await (await page.request.get("/contact-us")).text();
  expect(html).toMatch(/<html lang="en-US" class="dark">/);
});

test("the theme switcher changes the class and the choice survives a reload", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto("/");
  await waitForHydration(page);
  const html = page.locator("html");
  await expect(page.getByRole("button", { name: "System" })).toHaveAttribute("aria-pressed", "true");

  await page.getByRole("button", { name: "Dark" }).click();
  await expect(html).toHaveClass(/\bdark\b/);
  await expect(page.getByRole("button", { name: "Dark" })).toHaveAttribute("aria-pressed", "true");

  await recordFirstFrame(page);
  await page.reload();
  expect(await firstFrameDark(page)).toBe(true);
  await waitForHydration(page);
  await expect(page.getByRole("button", { name: "Dark" })).toHaveAttribute("aria-pressed", "true");

  await page.getByRole("button", { name: "Light" }).click();
  await expect(html).not.toHaveClass(/\bdark\b/);
  await page.reload();
  await expect(html).not.toHaveClass(/\bdark\b/);
  expect(await page.evaluate(() => localStorage.getItem("color-schema"))).toBe("light");
});

test("images show their dark source in dark mode and the light one otherwise", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto("/");
  const light = page.locator('img[data-theme-variant="light"]').first();
  const dark = page.locator('img[data-theme-variant="dark"]').first();
  await expect(light).toBeVisible();
  await expect(dark).toBeHidden();

  await page.emulateMedia({ colorScheme: "dark" });
  await page.reload();
  await expect(dark).toBeVisible();
  await expect(light).toBeHidden();
  // The dark picture really loaded (not the placeholder).
  await expect.poll(() => dark.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
});

test("an image that fails to load becomes the placeholder at the same size", async ({ page, request }) => {
  // Break the landing page's first theme-aware image, whatever it is.
  const html = await (await request.get("/")).text();
  const src = /<img[^>]*data-theme-variant="light"[^>]*>/.exec(html)?.[0].match(/src="([^"]+)"/)?.[1];
  expect(src).toBeTruthy();
  await page.route((url) => url.pathname === src, (route) => route.fulfill({ status: 404, body: "" }));
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto("/");
  const img = page.locator('img[data-theme-variant="light"]').first();
  // Below the first screen, the picture is fetched once the visitor scrolls toward it (lib/near-images.ts).
  await img.scrollIntoViewIfNeeded();
  await expect(img).toHaveAttribute("src", "/images/placeholder.svg");
  const box = await img.boundingBox();
  expect(box?.width).toBeGreaterThan(0);
  expect(box!.height / box!.width).toBeCloseTo(400 / 640, 1);
});

// Without JavaScript the theme buttons are a form: Dark posts to the edge, which
// sets the theme cookie and sends the browser back to the page, rendered dark by the server.
// The page cache keeps that dark copy apart: a light visitor never gets it.
test.describe("theme buttons without JavaScript", () => {
  test.use({ javaScriptEnabled: false, colorScheme: "light" });

  for (const width of [390, 1280]) {
    test(`Dark makes the page dark, and the cached dark copy is nobody else's (${width} px)`, async ({ browser }) => {
      const dark = await browser.newContext({ javaScriptEnabled: false, colorScheme: "light", viewport: { width, height: 900 } });
      const page = await dark.newPage();
      const path = width === 390 ? "/features" : "/omnibus-university";
      await page.goto(`${path}?utm_source=theme-test`);
      await expect(page.locator("html")).not.toHaveClass(/dark/);
      const buttons = page.getByRole("banner").getByRole("group", { name: "Colour theme" }).first();
      await buttons.getByRole("button", { name: "Dark" }).click();
      await expect(page).toHaveURL(new RegExp(`${path}$`));
      await expect(page.locator("html")).toHaveClass(/\bdark\b/);
      expect(await page.locator("html").evaluate((el) => getComputedStyle(el).colorScheme)).toBe("dark");
      expect(await page.locator("body").evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe("rgb(255, 255, 255)");
      await expect(buttons.getByRole("button", { name: "Dark" })).toHaveAttribute("aria-pressed", "true");

      // Again: the cache's dark copy.
      const again = await page.goto(path);
      expect(again?.headers()["x-cache"]).toMatch(/HIT|MISS|STALE/);
      await expect(page.locator("html")).toHaveClass(/\bdark\b/);

      // A light visitor (no cookie) gets the light page, from the cache too.
      const light = await browser.newContext({ javaScriptEnabled: false, colorScheme: "light", viewport: { width, height: 900 } });
      const other = await light.newPage();
      await other.goto(path);
      const res = await other.goto(path);
      expect(res?.headers()["x-cache"]).toBe("HIT");
      await expect(other.locator("html")).not.toHaveClass(/dark/);
      expect(await other.locator("body").evaluate((el) => getComputedStyle(el).backgroundColor)).toBe("rgb(255, 255, 255)");

      // System takes the cookie away again.
      await buttons.getByRole("button", { name: "System" }).click();
      await expect(page).toHaveURL(new RegExp(`${path}$`));
      await expect(page.locator("html")).not.toHaveClass(/dark/);
      await dark.close();
      await light.close();
    });
  }
});

test("with JavaScript, a theme button sets the cookie too: the next page arrives dark from the server", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto("/");
  await waitForHydration(page);
  await page.getByRole("banner").getByRole("group", { name: "Colour theme" }).first().getByRole("button", { name: "Dark" }).click();
  await expect(page.locator("html")).toHaveClass(/\bdark\b/);
  const html = await (await page.request.get("/contact-us")).text();
  expect(html).toMatch(/<html lang="en-US" class="dark">/);
});
