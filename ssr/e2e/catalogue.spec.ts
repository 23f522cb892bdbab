// The catalogue a marketer uses. Every /blocks thumbnail shows
// its block; every demo gets the width its block needs; every block page says
// where each component lives and how a page uses it, with content JSON that
// parses; the blog layout demos show their content JSON; the
// featured-and-archive blog layout lists each post once.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import sharp from "sharp";
import { routes } from "./helpers";
import { drawing, showsSomething } from "./pixels";

const repo = path.resolve(import.meta.dirname, "..", "..");
const blockPages = routes.filter((r) => r.module === "_blocks/block.tsx" || r.module === "_blocks/advanced.tsx");
const blogDemos = routes.filter((r) => r.module === "_blocks/blog-demo.tsx");

for (const colorScheme of ["light", "dark"] as const) {
  test(`/blocks: every thumbnail shows its block (${colorScheme})`, async ({ browser }) => {
    test.setTimeout(90_000);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme });
    const page = await context.newPage();
    await page.goto("/blocks");
    // The picture box of each entry card (the card's first part, above its title).
    const cards = page.locator("main section > ul > li:has(h3 a[href^='/blocks/'])");
    await expect(cards).toHaveCount(blockPages.length);
    const empty: string[] = [];
    for (const card of await cards.all()) {
      const name = (await card.locator("h3").last().textContent())?.trim();
      const box = card.locator("> div").first();
      await box.scrollIntoViewIfNeeded();
      // Its picture (if any) loaded before it is judged.
      await expect.poll(() => box.locator("img:visible").evaluateAll((imgs) => imgs.every((i) => (i as HTMLImageElement).complete))).toBe(true);
      // Inside the box's edges (the card's ring and dividing line are not the picture).
      const shot = await box.screenshot({ animations: "disabled" });
      const { width = 0, height = 0 } = await sharp(shot).metadata();
      const { data, info } = await sharp(shot).extract({ left: 4, top: 4, width: width - 8, height: height - 8 }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      const shows = showsSomething(data, info.width);
      if (!shows.drawn || !shows.large) empty.push(`${name} ${JSON.stringify(drawing(data, info.width))}`);
    }
    expect(empty, "thumbnails that are blank or mostly empty").toEqual([]);
    await context.close();
  });
}

for (const { width, js } of [
  { width: 1280, js: true },
  { width: 390, js: false },
]) {
  test(`every demo gets the page's content width at ${width} px, and says where its component lives and how a page uses it (JavaScript ${js ? "on" : "off"})`, async ({ browser }) => {
    test.setTimeout(180_000);
    const context = await browser.newContext({ viewport: { width, height: 900 }, javaScriptEnabled: js });
    const page = await context.newPage();
    const problems: unknown[] = [];
    for (const r of blockPages) {
      await page.goto(r.path);
      const found = await page.evaluate(() => {
        // The content column: the width of the page's header block's container.
        const column = document.querySelector("main h1")!.closest("header")!.parentElement!;
        const cs = getComputedStyle(column);
        const inner = column.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
        return [...document.querySelectorAll<HTMLElement>("[data-example]")].map((example) => {
          const preview = example.querySelector<HTMLElement>("[data-preview]")!;
          const text = (example.innerText || example.textContent || "").replace(/\s+/g, " ");
          return {
            title: example.dataset.example,
            narrow: preview.getBoundingClientRect().width < inner - 1 ? `${Math.round(preview.getBoundingClientRect().width)} of ${Math.round(inner)} px` : null,
            clipped: preview.scrollWidth > preview.clientWidth + 1 ? `${preview.scrollWidth} > ${preview.clientWidth}` : null,
            component: /Component: (\S+) in (ssr\/app\/components\/\S+\.tsx)/.exec(text)?.slice(1) ?? null,
            usage: /On a page: put the content below in .+ and render <(\S+) \{\.\.\.content\} \/>/.exec(text)?.[1] ?? null,
            json: example.querySelector("pre")?.textContent ?? null,
          };
        });
      });
      expect(found.length, r.path).toBeGreaterThan(0);
      for (const f of found) {
        const where = `${r.path} “${f.title}”`;
        if (f.narrow) problems.push(`${where}: the demo is ${f.narrow} wide`);
        if (f.clipped) problems.push(`${where}: its content is clipped (${f.clipped})`);
        if (!f.component) {
          problems.push(`${where}: no "Component: … in ssr/app/components/…" line`);
        } else {
          const [name, file] = f.component;
          const source = existsSync(path.join(repo, file)) ? readFileSync(path.join(repo, file), "utf8") : "";
          if (!new RegExp(`export (function|const) ${name}\\b`).test(source)) problems.push(`${where}: ${file} does not export ${name}`);
          if (f.usage !== name) problems.push(`${where}: the usage line renders ${f.usage}, not ${name}`);
        }
        try {
          const content = JSON.parse(f.json ?? "");
          if (content === null || typeof content !== "object") problems.push(`${where}: the content is not a JSON object`);
        } catch {
          problems.push(`${where}: the content JSON does not parse`);
        }
      }
    }
    expect(problems).toEqual([]);
    await context.close();
  });
}

test("the three-column cards use the full content width at 1280 px: three cards in a row, none squeezed", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/blocks/cards");
  const cards = page.locator("[data-example='Three columns'] [data-preview] li");
  const boxes = await cards.evaluateAll((lis) => lis.slice(0, 3).map((li) => li.getBoundingClientRect()).map((b) => ({ top: Math.round(b.top), width: b.width })));
  expect(new Set(boxes.map((b) => b.top)).size, "the first three cards share a row").toBe(1);
  for (const b of boxes) expect(b.width).toBeGreaterThanOrEqual(350);
});

for (const js of [true, false]) {
  test(`every blog layout demo shows its content JSON, naming the posts it shows (JavaScript ${js ? "on" : "off"})`, async ({ browser }) => {
    test.setTimeout(90_000);
    const context = await browser.newContext({ javaScriptEnabled: js, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    for (const r of blogDemos) {
      await page.goto(r.path);
      const shown = await page.locator("pre").allTextContents();
      expect(shown.length, `${r.path} shows no content JSON`).toBeGreaterThan(0);
      const content = JSON.parse(shown[0]);
      const slugs = JSON.stringify(content).match(/"slug":"[^"]+"/g) ?? [];
      expect(slugs.length, `${r.path}'s content names no post`).toBeGreaterThan(0);
      await expect(page.getByText(/Component: (ArticleList|ArticleView) in ssr\/app\/components\/content\//)).toBeVisible();
    }
    await context.close();
  });

  test(`/blog/posts-10 shows no post twice (JavaScript ${js ? "on" : "off"})`, async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: js, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto("/blog/posts-10");
    // Every link to a post that names it (not its "Read more", which names it in aria-label): each post once.
    const links = await page.locator('main a[href^="/blog/article/"]').evaluateAll((as) => as.map((a) => ({ href: a.getAttribute("href"), text: a.textContent?.trim() ?? "", readMore: a.hasAttribute("aria-label") })));
    const named = links.filter((l) => !l.readMore && l.text !== "").map((l) => l.href);
    expect(named.length).toBeGreaterThan(2);
    expect(new Set(named).size, named.join(" | ")).toBe(named.length);
    await context.close();
  });
}
