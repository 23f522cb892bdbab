// Writes the /blocks index's thumbnails into ssr/public/images/blocks: for
// every catalogue entry (routes with the _blocks/block.tsx or
// _blocks/advanced.tsx module), a picture of its first example as its demo
// page shows it, in the light and the dark theme (routes/_blocks/thumbnail.ts
// names the files and their size). Pictures, not live copies of the
// components: the index stays a light page (no component code, no duplicate
// form ids), and each entry gets its own picture even where two entries show
// the same component. The example's drawn area (text, pictures, controls,
// coloured boxes) is framed: a small block (a button) is shown up to twice
// its size in the middle, a wide one whole, a tall one from its top, a wide
// and low one (a navigation bar) from its start.
// The files are committed; with the site running (make run), after changing a
// block or its example:
//   node ssr/scripts/images/thumbnails.mjs [http://localhost:8080] [route-id…]
// (ssr/e2e/catalogue.spec.ts checks on /blocks that no thumbnail is blank.)
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright";
import sharp from "sharp";

const HERE = dirname(fileURLToPath(import.meta.url));
const OUT = join(HERE, "..", "..", "public", "images", "blocks");
const thumbnailTs = readFileSync(join(HERE, "..", "..", "app", "routes", "_blocks", "thumbnail.ts"), "utf8");
const W = Number(/width: (\d+)/.exec(thumbnailTs)[1]);
const H = Number(/height: (\d+)/.exec(thumbnailTs)[1]);
const routes = JSON.parse(readFileSync(join(HERE, "..", "..", "..", "shared", "routes.json"), "utf8")).routes;

const [base = "http://localhost:8080", ...only] = process.argv.slice(2);
const entries = routes.filter((r) => (r.module === "_blocks/block.tsx" || r.module === "_blocks/advanced.tsx") && (only.length === 0 || only.includes(r.id)));
const SCALE = 2; // device pixels per CSS pixel of the capture
const PAD = 16; // CSS px around the drawn area

mkdirSync(OUT, { recursive: true });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: ["--no-sandbox"] });
for (const theme of ["light", "dark"]) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: SCALE, colorScheme: theme, reducedMotion: "reduce", serviceWorkers: "block" });
  const page = await context.newPage();
  for (const route of entries) {
    await page.goto(base + route.path, { waitUntil: "load" });
    // Every picture of the example loaded (the lazy ones too: scrolled into view below).
    await page.evaluate(() => document.fonts.ready);
    const preview = page.locator("[data-preview]").first();
    await preview.scrollIntoViewIfNeeded();
    // The drawn area: the union of what paints something (text, replaced
    // elements, controls, boxes with a background, border or shadow), in page coordinates.
    const area = await preview.evaluate((root, pad) => {
      const frame = root.getBoundingClientRect();
      const boxes = [];
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (node.nodeType === Node.TEXT_NODE) {
          if (!node.textContent.trim()) continue;
          const range = document.createRange();
          range.selectNodeContents(node);
          boxes.push(range.getBoundingClientRect());
          continue;
        }
        const style = getComputedStyle(node);
        if (style.visibility === "hidden" || style.display === "none") continue;
        const paints =
          /^(IMG|SVG|VIDEO|CANVAS|INPUT|TEXTAREA|SELECT|BUTTON|HR)$/i.test(node.nodeName) ||
          style.backgroundColor !== "rgba(0, 0, 0, 0)" ||
          style.backgroundImage !== "none" ||
          parseFloat(style.borderTopWidth) + parseFloat(style.borderBottomWidth) + parseFloat(style.borderLeftWidth) + parseFloat(style.borderRightWidth) > 0 ||
          style.boxShadow !== "none";
        if (paints) boxes.push(node.getBoundingClientRect());
      }
      const seen = boxes.filter((b) => b.width > 0 && b.height > 0 && b.right > frame.left && b.left < frame.right && b.bottom > frame.top && b.top < frame.bottom);
      const left = Math.max(frame.left + 1, Math.min(...seen.map((b) => b.left)) - pad);
      const top = Math.max(frame.top + 1, Math.min(...seen.map((b) => b.top)) - pad);
      const right = Math.min(frame.right - 1, Math.max(...seen.map((b) => b.right)) + pad);
      const bottom = Math.min(frame.bottom - 1, Math.max(...seen.map((b) => b.bottom)) + pad);
      return { x: left + scrollX, y: top + scrollY, width: right - left, height: bottom - top };
    }, PAD);
    await page.waitForFunction(() => [...document.querySelectorAll("[data-preview] img")].every((img) => img.complete || !img.checkVisibility()));
    const shot = await page.screenshot({ clip: area, fullPage: true, animations: "disabled" });
    // Image pixels per CSS pixel: as large as fits, at most the capture's
    // own sharpness (2), at least what shows a full-width block whole, and
    // a wide, low block (a navigation bar) at least 40% of the frame's height (its start shown).
    const fit = Math.min(W / area.width, H / area.height);
    const scale = Math.min(SCALE, Math.max(W / 1216, fit, (0.4 * H) / area.height));
    const width = Math.max(1, Math.round(area.width * scale));
    const height = Math.max(1, Math.round(area.height * scale));
    let picture = sharp(shot).resize(width, height);
    // Wider or taller than the frame: keep the top left (where a block starts).
    if (width > W || height > H) picture = sharp(await picture.toBuffer()).extract({ left: 0, top: 0, width: Math.min(width, W), height: Math.min(height, H) });
    const body = await picture.toBuffer();
    const meta = await sharp(body).metadata();
    // The frame's background: the capture's top-left pixel (inside the example's padding).
    const { data } = await sharp(shot).extract({ left: 0, top: 0, width: 1, height: 1 }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const webp = await sharp({ create: { width: W, height: H, channels: 3, background: { r: data[0], g: data[1], b: data[2] } } })
      .composite([{ input: body, left: Math.round((W - meta.width) / 2) * (width > W ? 0 : 1), top: Math.round((H - meta.height) / 2) * (height > H ? 0 : 1) }])
      .webp({ quality: 72, effort: 6 })
      .toBuffer();
    const file = `${route.id}${theme === "dark" ? "-dark" : ""}.webp`;
    writeFileSync(join(OUT, file), webp);
    console.log(`images/blocks/${file} ${webp.length} bytes`);
  }
  await context.close();
}
await browser.close();
