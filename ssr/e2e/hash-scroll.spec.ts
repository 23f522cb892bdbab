import { expect, test } from "@playwright/test";
import { waitForHydration } from "./helpers";

test("a direct load of /#features shows the section", async ({ page }) => {
  await page.goto("/#features");
  await expect(page.locator("#features")).toBeInViewport();
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
});

test("a client link to /#features scrolls there smoothly, no sooner than 500 ms after the navigation", async ({ page }) => {
  await page.goto("/features");
  await waitForHydration(page);
  await page.evaluate(() => {
    const w = window as unknown as { __marker: number; __clickAt: number; __scrollCallAt?: number };
    w.__marker = 1;
    document.addEventListener("click", () => (w.__clickAt = performance.now()), { capture: true, once: true });
    // When the page asks for the smooth scroll (scroll events alone also come from layout changes).
    const scrollIntoView = Element.prototype.scrollIntoView;
    Element.prototype.scrollIntoView = function (this: Element, ...args: Parameters<Element["scrollIntoView"]>) {
      if (this.id === "features") w.__scrollCallAt ??= performance.now();
      return scrollIntoView.apply(this, args);
    };
  });

  await page.getByRole("link", { name: "Back to the overview" }).click();
  await expect(page).toHaveURL("/#features");
  await expect.poll(() => page.evaluate(() => "__scrollCallAt" in window)).toBe(true);
  await expect(page.locator("#features")).toBeInViewport();

  const { marker, delay } = await page.evaluate(() => {
    const w = window as unknown as { __marker: number; __clickAt: number; __scrollCallAt: number };
    return { marker: w.__marker, delay: w.__scrollCallAt - w.__clickAt };
  });
  expect(marker).toBe(1); // same document: a client navigation
  expect(delay).toBeGreaterThanOrEqual(500);
});

test("a client navigation without a hash starts at the top of the new page", async ({ page }) => {
  await page.goto("/");
  await waitForHydration(page);
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(300);

  // The navigation bar is sticky, so its links stay reachable at the bottom.
  await page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Pricing" }).click();
  await expect(page).toHaveURL("/old-pricing");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
});

test("back returns to where the visitor was", async ({ page }) => {
  await page.goto("/");
  await waitForHydration(page);
  await page.evaluate(() => window.scrollTo(0, 600));
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(600);
  // Clicked at once: the page notes the position when it leaves (lib/use-hash-scroll.ts), not from
  // scroll events, whose listener may not be attached yet right after hydration (CI saw 0 once).
  await page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Pricing" }).click();
  await expect(page).toHaveURL("/old-pricing");
  await page.goBack();
  await expect(page).toHaveURL("/");
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(600);
});

test("a landing feature card's link to /features#… shows /features at that section, never another part of it first (no flash of its footer)", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/");
  await waitForHydration(page);
  const card = page.locator("#features").getByRole("link", { name: "Order fulfilment" });
  await card.scrollIntoViewIfNeeded();
  // Every frame from the click on: once /features is in the document, note whether its section is on screen.
  await page.evaluate(() => {
    const w = window as unknown as { __offTarget: number; __frames: number };
    w.__offTarget = 0;
    w.__frames = 0;
    const sample = () => {
      const target = document.querySelector("#fulfilment");
      if (target) {
        w.__frames++;
        const { top } = target.getBoundingClientRect();
        if (top < 0 || top > window.innerHeight / 2) w.__offTarget++;
      }
      if (w.__frames < 90) requestAnimationFrame(sample);
    };
    document.addEventListener("click", () => requestAnimationFrame(sample), { capture: true, once: true });
  });
  await card.click();
  await expect(page).toHaveURL("/features#fulfilment");
  await expect(page.locator("#fulfilment")).toBeInViewport();
  await expect.poll(() => page.evaluate(() => (window as unknown as { __frames: number }).__frames)).toBeGreaterThanOrEqual(60);
  expect(await page.evaluate(() => (window as unknown as { __offTarget: number }).__offTarget), "frames showing another part of /features").toBe(0);
});

test("/features has a section with its own anchor for every claimed feature", async ({ page }) => {
  await page.goto("/features");
  for (const id of ["shipping", "admin-console", "fulfilment", "discounts", "content", "dashboards", "ai", "advertising", "uptime"]) {
    await expect(page.locator(`section#${id} h2`)).toHaveCount(1);
    await expect(page.getByRole("navigation", { name: "On this page" }).locator(`a[href="#${id}"]`)).toHaveCount(1);
  }
});
