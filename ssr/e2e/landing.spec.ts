// The landing page (SPEC §2 Landing page, Footer, Theme; §9 constants) as a
// visitor sees it, in Chromium against the real edge and renderer.
import { mkdirSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import features from "@omnibus/shared/content/features.json" with { type: "json" };
import footer from "@omnibus/shared/content/footer.json" with { type: "json" };
import landing from "@omnibus/shared/content/landing.json" with { type: "json" };
import logos from "@omnibus/shared/content/logos.json" with { type: "json" };
import site from "@omnibus/shared/content/site.json" with { type: "json" };
import { collectErrors, expectNoHydrationProblems, waitForHydration } from "./helpers";

// The renderer's defaults (the e2e edge sets no SUPPORT_EMAIL, SUPPORT_PHONE, SCHEDULE_DEMO_URL).
const DEMO_URL = "https://calendly.com/omnibus/demo";

async function openHome(page: Page, theme: "light" | "dark" = "light") {
  await page.addInitScript((t) => localStorage.setItem("color-schema", t), theme);
  const errors = collectErrors(page);
  await page.goto("/");
  await waitForHydration(page);
  return errors;
}

test("the hero: headline, sub-line, Get Started and Schedule Demo, the screenshot and five customer logos", async ({ page }) => {
  const errors = await openHome(page);
  const hero = page.locator("section", { has: page.locator("h1") });
  await expect(page.locator("h1")).toHaveText(landing.hero.title);
  await expect(hero.getByText(landing.hero.subtitle)).toBeVisible();
  await expect(hero.getByRole("link", { name: "Get Started" })).toHaveAttribute("href", "/register");
  await expect(hero.getByRole("link", { name: "Schedule Demo" })).toHaveAttribute("href", DEMO_URL);

  // The screenshot starts below the first screen on phones and desktops alike
  // (the headline's sub-line is the largest paint): it loads as it nears the
  // view, not beside the document, and keeps its size.
  const shot = hero.getByRole("img", { name: landing.hero.screenshot.alt }).first();
  await expect(shot).toHaveAttribute("loading", "lazy");
  await expect(shot).not.toHaveAttribute("fetchpriority", /./);
  await expect(page.locator('link[rel="preload"][href^="/images/app/"]')).toHaveCount(0);
  await expect(shot).toHaveAttribute("width", "1280");
  await expect(shot).toHaveAttribute("height", "800");
  await shot.scrollIntoViewIfNeeded();
  await expect(shot).toBeVisible();
  await expect.poll(() => shot.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

  const strip = hero.locator("[data-logo-strip] img");
  await expect(strip).toHaveCount(5);
  for (const [i, logo] of logos.logos.slice(0, 5).entries()) {
    await expect(strip.nth(i)).toHaveAttribute("alt", logo.name);
    await expect.poll(() => strip.nth(i).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  }
  expectNoHydrationProblems(errors);
});

test("every image on the page has a width and a height, and the screenshot is lazy like every image below the first screen", async ({ page }) => {
  await openHome(page);
  const images = await page.locator("img").evaluateAll((imgs: HTMLImageElement[]) =>
    imgs.map((img) => ({ src: img.getAttribute("src"), width: img.getAttribute("width"), height: img.getAttribute("height"), loading: img.loading })),
  );
  expect(images.length).toBeGreaterThan(8);
  for (const img of images) {
    expect(Number(img.width), `${img.src} width`).toBeGreaterThan(0);
    expect(Number(img.height), `${img.src} height`).toBeGreaterThan(0);
  }
  const shots = images.filter((img) => img.src?.startsWith("/images/app/"));
  expect(shots.map((img) => img.src).sort()).toEqual([landing.hero.screenshot.darkSrc, landing.hero.screenshot.src].sort());
  expect(shots.map((img) => img.loading)).toEqual(["lazy", "lazy"]);
});

test("without a Google client id the page offers no Google sign-in", async ({ page }) => {
  // The e2e edge sets no GOOGLE_CLIENT_ID: the section would promise a sign-in that cannot work.
  await openHome(page);
  await expect(page.locator("h1")).toBeVisible();
  await expect(page.getByRole("heading", { name: landing.google.title })).toHaveCount(0);
  await expect(page.locator("[data-google-signin]")).toHaveCount(0);
});

test("the feature grid shows 8 features in 3 columns, each linking to its section", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await openHome(page);
  const grid = page.locator("#features [data-feature-grid]");
  const items = grid.locator("> li");
  await expect(items).toHaveCount(8);
  const columns = await grid.evaluate((el) => getComputedStyle(el).gridTemplateColumns.split(" ").length);
  expect(columns).toBe(3);
  for (const [i, feature] of features.features.slice(0, 8).entries()) {
    await expect(items.nth(i).getByRole("heading")).toHaveText(feature.title);
    await expect(items.nth(i).getByRole("link")).toHaveAttribute("href", feature.link);
  }
  // The ninth feature is over this page's limit.
  await expect(grid.getByText(features.features[8].title)).toHaveCount(0);
});

test("the feature-block component's defaults: 6 items in 4 columns on /blocks/features", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/blocks/features");
  await waitForHydration(page); // the columns come from the full stylesheet, fetched after the first paint
  // The catalogue's first example is the component with no props: its defaults.
  const grid = page.locator("[data-feature-grid]").first();
  await expect(grid.locator("> li")).toHaveCount(6);
  expect(await grid.evaluate((el) => getComputedStyle(el).gridTemplateColumns.split(" ").length)).toBe(4);
});

test("the client-logo strip shows at most 8 logos by default", async ({ page }) => {
  expect(logos.logos.length).toBeGreaterThan(8);
  await page.goto("/blocks/advanced/clients");
  await expect(page.locator("[data-logo-strip] img")).toHaveCount(8);
});

test("the AI section, three reasons and the success story", async ({ page }) => {
  await openHome(page);
  const ai = page.locator(`#${landing.ai.id}`);
  await expect(ai.getByRole("heading", { level: 2 })).toHaveText(landing.ai.title);
  await expect(ai.getByText(landing.ai.writing.title)).toBeVisible();
  for (const item of ["Campaign creation", "Algorithmic keyword bidding", "Automated keyword targeting", "Custom analytics"]) {
    await expect(ai.getByText(item, { exact: true })).toBeVisible();
  }

  const reasons = page.locator(`#${landing.reasons.id}`);
  await expect(reasons.locator("ol > li")).toHaveCount(3);
  await expect(reasons.getByRole("link", { name: "Create Store" })).toHaveAttribute("href", "/register");
  await expect(reasons.getByRole("link", { name: "Schedule Demo" })).toHaveAttribute("href", DEMO_URL);
  await expect(reasons).toContainText("99.99%");

  const story = page.getByRole("link", { name: landing.story.link.label });
  await expect(story).toHaveAttribute("href", landing.story.link.to);
  await story.click();
  await expect(page).toHaveURL(landing.story.link.to);
  await expect(page.locator("h1")).toContainText("Kaveri Handlooms");
});

test("the footer: call to action, columns, address, support contacts, socials, policies and copyright", async ({ page }) => {
  await openHome(page);
  const foot = page.locator("footer");
  // The call-to-action block: subtitle, title, two links, the benefits.
  await expect(foot.getByRole("heading", { name: footer.cta.title })).toBeVisible();
  await expect(foot.getByText(footer.cta.subtitle)).toBeVisible();
  await expect(foot.getByRole("link", { name: "Create Store" })).toHaveAttribute("href", "/register");
  await expect(foot.getByRole("link", { name: "Schedule Demo" })).toHaveAttribute("href", DEMO_URL);
  for (const benefit of footer.cta.benefits) await expect(foot.getByText(benefit.label)).toBeVisible();

  const nav = foot.getByRole("navigation", { name: "Footer" });
  for (const column of footer.columns) {
    await expect(nav.getByRole("heading", { name: column.title })).toBeVisible();
    for (const link of column.links) {
      await expect(nav.getByRole("link", { name: link.label, exact: true })).toHaveAttribute("href", "to" in link ? link.to! : link.url!);
    }
  }
  await expect(foot.locator("address")).toContainText("Bangalore");
  await expect(foot.locator("address")).toContainText("India");
  await expect(foot.getByRole("link", { name: "support@omnibus.example" })).toHaveAttribute("href", "mailto:support@omnibus.example");
  await expect(foot.getByRole("link", { name: "+91 80 4000 0000" })).toHaveAttribute("href", "tel:+918040000000");
  for (const social of footer.socials) {
    await expect(foot.getByRole("link", { name: social.name, exact: true })).toHaveAttribute("href", social.link);
  }
  const policies = foot.getByRole("list", { name: "Policies" });
  await expect(policies.getByRole("link")).toHaveText(footer.links.map((l) => l.label));
  await expect(foot.getByText(/© 2022-2023/)).toBeVisible();
  await expect(foot.getByRole("link", { name: "Omnibus" }).locator("img")).toHaveAttribute("src", site.logo.src);
});

test.describe("falling stars", () => {
  test("40 stars in the dark theme, animated with transform and opacity only, the same on the server and the client", async ({ page, request }) => {
    const html = await (await request.get("/")).text();
    const serverStars = [...html.matchAll(/<span class="falling-star" style="([^"]*)"/g)].map((m) => m[1]);
    expect(serverStars).toHaveLength(40);

    const errors = await openHome(page, "dark");
    const stars = page.locator("[data-stars] .falling-star");
    await expect(stars).toHaveCount(40);
    await expect(page.locator("[data-stars]")).toBeVisible();
    const clientStars = await stars.evaluateAll((els) => els.map((el) => el.getAttribute("style")));
    expect(clientStars).toEqual(serverStars);
    expectNoHydrationProblems(errors);

    expect(await stars.first().evaluate((el) => getComputedStyle(el).animationName)).toBe("falling-star");
    expect(await stars.first().evaluate((el) => getComputedStyle(el).animationPlayState)).toBe("running");
    // The keyframes touch nothing that needs layout or paint.
    const animated = await page.evaluate(() => {
      const props = new Set<string>();
      for (const sheet of document.styleSheets) {
        for (const rule of sheet.cssRules) {
          if (rule instanceof CSSKeyframesRule && rule.name === "falling-star") {
            for (const frame of rule.cssRules) for (const prop of (frame as CSSKeyframeRule).style) props.add(prop);
          }
        }
      }
      return [...props].sort();
    });
    expect(animated).toEqual(["opacity", "transform"]);
  });

  test("a night sky: not drawn in the light theme", async ({ page }) => {
    await openHome(page, "light");
    await expect(page.locator("[data-stars]")).toBeHidden();
  });

  test("paused when the visitor prefers reduced motion", async ({ page }) => {
    await page.emulateMedia({ reducedMotion: "reduce" });
    await openHome(page, "dark");
    const star = page.locator("[data-stars] .falling-star").first();
    expect(await star.evaluate((el) => getComputedStyle(el).animationPlayState)).toBe("paused");
  });
});

test("the theme choice survives a reload, with the screenshot's dark variant", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto("/");
  await waitForHydration(page);
  await page.getByRole("button", { name: "Dark" }).click();
  await page.reload();
  await waitForHydration(page);
  await expect(page.locator("html")).toHaveClass(/\bdark\b/);
  await expect(page.getByRole("button", { name: "Dark" })).toHaveAttribute("aria-pressed", "true");
  const dark = page.locator(`img[src="${landing.hero.screenshot.darkSrc}"]`);
  await expect(dark).toBeVisible();
  await expect(page.locator(`img[src="${landing.hero.screenshot.src}"]`)).toBeHidden();
});

test("a screenshot that fails to load is replaced by the placeholder in the same box", async ({ page, browser }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await openHome(page);
  const selector = `img[data-theme-variant="light"][alt="${landing.hero.screenshot.alt}"]`;
  const before = await page.locator(selector).boundingBox();

  const broken = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  // Whichever width of the light screenshot the browser picks from its srcset.
  const light = landing.hero.screenshot.src.replace(/-\d+\.\w+$/, "-");
  await broken.route((url) => url.pathname.startsWith(light), (route) => route.fulfill({ status: 404, body: "" }));
  await broken.addInitScript(() => localStorage.setItem("color-schema", "light"));
  await broken.goto("/");
  const img = broken.locator(selector);
  await expect(img).toHaveAttribute("src", "/images/placeholder.svg");
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
  expect(await img.boundingBox()).toEqual(before);
  await broken.close();
});

test.describe("mobile navigation", () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test("the menu opens and closes from the keyboard and names itself to screen readers", async ({ page }) => {
    await openHome(page);
    const toggle = page.locator("header summary");
    await expect(toggle).toHaveAccessibleName(/Menu/);
    await toggle.focus();
    await page.keyboard.press("Enter");
    const menuLink = page.locator("header details").getByRole("link", { name: "Features" });
    await expect(menuLink).toBeVisible();
    await page.keyboard.press("Tab");
    await expect(page.locator("header details a").first()).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(menuLink).toBeHidden();
    await expect(toggle).toBeFocused();
  });
});

// The look, for people: `/` at phone, tablet and desktop widths in both
// themes, saved under test-results/screenshots/.
for (const theme of ["light", "dark"] as const) {
  for (const width of [360, 768, 1280]) {
    test(`screenshot of / at ${width}px, ${theme}`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ reducedMotion: "reduce" });
      await openHome(page, theme);
      await expect(page.locator("html")).toHaveClass(theme === "dark" ? /\bdark\b/ : /^(?!.*\bdark\b)/);
      // Nothing wider than the viewport: no sideways scrolling, and no text
      // cut off inside a section that hides its overflow.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      const overflowing = await page.evaluate((w) => {
        const out: string[] = [];
        for (const el of document.querySelectorAll("main h1, main h2, main h3, main p, main a, main button, main li, footer p, footer a, footer li")) {
          if (el.closest("[aria-hidden=true]") || el.closest(".sr-only") || el.classList.contains("sr-only")) continue;
          const r = el.getBoundingClientRect();
          if (r.width > 0 && (r.right > w + 1 || r.left < -1)) out.push(`${el.tagName} "${el.textContent?.slice(0, 40)}" ${Math.round(r.left)}..${Math.round(r.right)}`);
        }
        return out;
      }, width);
      expect(overflowing).toEqual([]);
      // Lazy images below the fold: load them all before the full-page picture.
      await page.locator("img").evaluateAll((imgs: HTMLImageElement[]) => imgs.forEach((img) => (img.loading = "eager")));
      await page.waitForFunction(() => [...document.images].every((img) => img.complete));
      mkdirSync("test-results/screenshots", { recursive: true });
      await page.screenshot({ path: `test-results/screenshots/home-${width}-${theme}.png`, fullPage: true });
    });
  }
}
