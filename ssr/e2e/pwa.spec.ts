// The installable app (SPEC §2 Installable-app prompt, §9): the manifest, the
// Workbox service worker at /sw.js with scope /, its offline fallback, and
// the prompt's 'offline-ready' and 'need-refresh' messages. The other specs
// block service workers (playwright.config.ts); these allow them.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import navigation from "@omnibus/shared/content/navigation.json" with { type: "json" };
import pwa from "@omnibus/shared/content/pwa.json" with { type: "json" };
import names from "@omnibus/shared/http.json" with { type: "json" };
import { waitForHydration } from "./helpers";

test.use({ serviceWorkers: "allow" });
// Installing a worker precaches the whole shell: slower than a page load.
test.describe.configure({ timeout: 90_000 });

// The worker the edge serves (SSR_DIR=ssr in playwright.config.ts).
const SW_FILE = path.join(import.meta.dirname, "..", "build", "client", "sw.js");

/** Opens / and waits until the service worker is active; returns its scope. */
async function installed(page: Page): Promise<string> {
  await page.goto("/");
  await waitForHydration(page);
  // The worker registers at the visitor's first interaction (e2e/first-visit.spec.ts).
  await page.locator("body").press("Shift"); // on the page itself, whichever element had focus
  return page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
}

/** Reloads until the page is controlled by the active worker (the first load never is). */
async function controlled(page: Page) {
  await page.reload();
  await waitForHydration(page);
  await expect.poll(() => page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true);
  // The prompt watches for new versions from the visitor's first interaction.
  await page.locator("body").press("Shift"); // on the page itself, whichever element had focus
}

test("the page links a web app manifest with PNG icons of 192 and 512 pixels", async ({ page, request }) => {
  await page.goto("/");
  await waitForHydration(page);
  // Linked at the visitor's first interaction (Chromium fetches a linked manifest and its icon on every load).
  await page.locator("body").press("Shift"); // on the page itself, whichever element had focus
  const href = await page.locator('link[rel="manifest"]').getAttribute("href");
  expect(href).toBe("/manifest.webmanifest");
  const manifest = await (await request.get(href!)).json();
  expect(manifest).toMatchObject({ start_url: "/", scope: "/", display: "standalone", short_name: pwa.manifest.short_name });
  const sizes = manifest.icons.filter((icon: { type: string }) => icon.type === "image/png").map((icon: { sizes: string }) => icon.sizes);
  expect(sizes).toEqual(expect.arrayContaining(["192x192", "512x512"]));
  for (const icon of manifest.icons) {
    const response = await request.get(icon.src);
    expect(response.status(), icon.src).toBe(200);
    expect(response.headers()["content-type"]).toBe("image/png");
    const png = await response.body();
    // PNG signature, then IHDR width and height.
    expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
    const [w, h] = icon.sizes.split("x").map(Number);
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([w, h]);
  }
});

test("/sw.js is served for revalidation on every check", async ({ request }) => {
  const response = await request.get("/sw.js");
  expect(response.status()).toBe(200);
  expect(response.headers()["cache-control"]).toBe("no-cache");
  expect(response.headers()["content-type"]).toMatch(/javascript/);
});

test("the service worker registers at /sw.js with scope / and says the app works offline", async ({ page, baseURL }) => {
  expect(await installed(page)).toBe(`${baseURL}/`);
  const script = await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.active?.scriptURL);
  expect(script).toBe(`${baseURL}/sw.js`);

  const prompt = page.locator("[data-pwa-prompt]");
  await expect(prompt).toHaveAttribute("data-pwa-prompt", "offline-ready");
  await expect(prompt).toContainText(pwa.prompt.offlineReady);
  await expect(prompt.getByRole("button", { name: pwa.prompt.reload })).toHaveCount(0);
  // 'offline-ready' is news, not a question: it leaves on its own after a few seconds.
  await expect(prompt).toHaveCount(0, { timeout: 30_000 });
});

const overlaps = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

for (const { path, covered } of [
  // Nor the header (logo, navigation, Sign in, Get Started, the phone menu button).
  { path: "/", covered: ["header", "main >> role=link[name='Get Started']", "main >> role=link[name='Schedule Demo']"] },
  { path: "/register", covered: ["header", "main >> role=textbox[name='Your name']", "main >> role=button[name='Create store']"] },
]) {
  for (const [width, height] of [[390, 844], [1280, 800]])
  test(`at ${width} px the 'offline-ready' note covers none of ${path}'s header, calls to action or form`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    await page.goto(path);
    await waitForHydration(page);
    await page.locator("body").press("Shift"); // the worker registers at the first interaction (on the page itself, whichever element had focus)
    const prompt = page.locator("[data-pwa-prompt]");
    await expect(prompt).toHaveAttribute("data-pwa-prompt", "offline-ready", { timeout: 30_000 });
    const box = (await prompt.boundingBox())!;
    for (const selector of covered) {
      const target = page.locator(selector).first();
      await expect(target).toBeVisible();
      expect(overlaps(box, (await target.boundingBox())!), `${selector} is covered`).toBe(false);
    }
  });
}

test("offline: a visited page opens from the cache, an unvisited one shows the offline page", async ({ page, context }) => {
  await installed(page);
  await controlled(page); // this load, through the worker, is now in its page cache
  await context.setOffline(true);
  try {
    await page.reload();
    await expect(page.locator("h1")).toBeVisible();
    await expect(page.locator("#newsletter")).toBeVisible();

    await page.goto("/partner-with-us");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("You are offline");
    // Styled under the strict CSP: its stylesheet applies, light and dark.
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await page.emulateMedia({ colorScheme: "light" });
    await expect.poll(background).toBe("rgb(255, 255, 255)");
    await expect(page.getByRole("link", { name: "Try again" })).toHaveCSS("border-radius", "999px");
    await page.emulateMedia({ colorScheme: "dark" });
    await expect.poll(background).toBe("rgb(11, 10, 20)");

    // A visitor who chose a theme on the site keeps it offline, whatever the system says.
    const origin = new URL(page.url()).origin;
    for (const [theme, system, expected] of [["dark", "light", "rgb(11, 10, 20)"], ["light", "dark", "rgb(255, 255, 255)"]] as const) {
      await context.addCookies([{ name: names.themeCookie, value: theme, url: origin }]);
      await page.emulateMedia({ colorScheme: system });
      await page.goto("/ombre");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("You are offline");
      await expect.poll(background, `${theme} chosen on a ${system} system`).toBe(expected);
    }
  } finally {
    await context.setOffline(false);
  }
});

test("offline: client-side navigation keeps working for pages visited before", async ({ page, context }) => {
  await page.setViewportSize({ width: 1280, height: 800 }); // the navigation's links in the bar
  await installed(page);
  await controlled(page);
  const nav = page.getByRole("navigation", { name: navigation.menu.label });
  const h1 = page.getByRole("heading", { level: 1 });
  const home = await h1.textContent();
  // /features visited by a client-side navigation (its data request went through the worker)...
  await nav.getByRole("link", { name: "Features", exact: true }).click();
  await expect(page).toHaveURL(/\/features$/);
  await expect(h1).not.toHaveText(home!);
  const features = await h1.textContent();
  // ...and /blog by a document load.
  await page.goto("/blog");
  await waitForHydration(page);
  const blog = await h1.textContent();

  await context.setOffline(true);
  try {
    await nav.getByRole("link", { name: "Features", exact: true }).click();
    await expect(page).toHaveURL(/\/features$/);
    await expect(h1).toHaveText(features!);
    // No data of /blog was ever fetched: the failed navigation becomes a document load the worker answers.
    await nav.getByRole("link", { name: "Blog", exact: true }).click();
    await expect(page).toHaveURL(/\/blog$/);
    await expect(h1).toHaveText(blog!);
  } finally {
    await context.setOffline(false);
  }
});

/**
 * Deploys a new version of the worker for the length of fn: one more line in
 * the built sw.js the edge serves from disk, as a real deploy changes it.
 * (Playwright's routing does not see the browser's own update check of a
 * worker script, so the file itself changes, and is put back afterwards.) The
 * edge's validators come from its file index at start, which a real deploy
 * renews by restarting it; here the browser's HTTP cache is cleared instead,
 * so the update check is not answered 304.
 */
async function withNewWorkerDeployed(page: Page, fn: () => Promise<void>) {
  const original = readFileSync(SW_FILE);
  writeFileSync(SW_FILE, Buffer.concat([original, Buffer.from(`\n// e2e update ${Date.now()}\n`)]));
  try {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Network.clearBrowserCache");
    await cdp.detach();
    await fn();
  } finally {
    writeFileSync(SW_FILE, original);
  }
}

async function checkForUpdate(page: Page) {
  await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())!.update());
}

test.describe("updates", () => {
  // One new version at a time: these tests change the served file.
  test.describe.configure({ mode: "serial" });

  test("a new version waits: 'need-refresh' with Reload, which hands over to it and reloads", async ({ page }) => {
    await installed(page);
    await controlled(page);
    const prompt = page.locator("[data-pwa-prompt]");
    await withNewWorkerDeployed(page, async () => {
      await checkForUpdate(page);
      await expect(prompt).toHaveAttribute("data-pwa-prompt", "need-refresh", { timeout: 15_000 });
    });
    await expect(prompt).toContainText(pwa.prompt.needRefresh);
    expect(await page.evaluate(async () => !!(await navigator.serviceWorker.getRegistration())!.waiting)).toBe(true);

    // Reload: the waiting worker takes over and the page loads again under it.
    const reloaded = page.waitForEvent("load");
    await prompt.getByRole("button", { name: pwa.prompt.reload }).click();
    await reloaded;
    await waitForHydration(page);
    await expect
      .poll(() => page.evaluate(async () => { const r = await navigator.serviceWorker.getRegistration(); return !!r?.active && !r.waiting; }))
      .toBe(true);
    await expect(page.locator("[data-pwa-prompt]")).toHaveCount(0);
  });

  test("Close dismisses the 'need-refresh' message and keeps the current version", async ({ page }) => {
    await installed(page);
    await controlled(page);
    const prompt = page.locator("[data-pwa-prompt]");
    await withNewWorkerDeployed(page, async () => {
      await checkForUpdate(page);
      await expect(prompt).toHaveAttribute("data-pwa-prompt", "need-refresh", { timeout: 15_000 });
    });
    await prompt.getByRole("button", { name: pwa.prompt.close }).click();
    await expect(prompt).toHaveCount(0);
    expect(await page.evaluate(async () => !!(await navigator.serviceWorker.getRegistration())!.waiting)).toBe(true);
  });
});
