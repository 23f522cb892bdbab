// Renders the social preview image (Open Graph / Twitter card), 1200×630 JPEG,
// to public/og-image.jpg with Debian's Chromium. Run by hand when the brand
// changes: `node scripts/og-image.mjs` (the image is committed).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

// Its headline is the card's alt text too (shared/content/site.json's socialCard).
const { socialCard } = JSON.parse(readFileSync(new URL("../../shared/content/site.json", import.meta.url), "utf8"));
const out = fileURLToPath(new URL(`../public${socialCard.src}`, import.meta.url));
const html = `<!doctype html><html><head><style>
  * { margin: 0; box-sizing: border-box; }
  body { width: 1200px; height: 630px; font-family: ui-sans-serif, system-ui, "DejaVu Sans", sans-serif;
    background: radial-gradient(circle at 85% 20%, #14b8a6 0, transparent 40%), linear-gradient(135deg, #230a61 0%, #5519d6 55%, #7447fa 100%);
    color: #fff; padding: 84px 96px; display: flex; flex-direction: column; justify-content: space-between; }
  .brand { display: flex; align-items: center; gap: 22px; font-size: 46px; font-weight: 800; letter-spacing: -1px; }
  .mark { width: 76px; height: 76px; border-radius: 20px; background: rgba(255,255,255,.14); display: grid; place-items: center; }
  h1 { font-size: 62px; line-height: 1.05; letter-spacing: -2px; font-weight: 800; max-width: 960px; }
  p { font-size: 30px; opacity: .85; max-width: 900px; line-height: 1.35; }
  .chips { display: flex; gap: 14px; }
  .chips span { font-size: 24px; padding: 10px 22px; border-radius: 999px; background: rgba(255,255,255,.14); }
</style></head><body>
  <div class="brand"><div class="mark"><svg width="48" height="48" viewBox="0 0 64 64"><circle cx="32" cy="32" r="20" fill="none" stroke="#fff" stroke-width="9"/><circle cx="32" cy="32" r="6" fill="#fff"/></svg></div>Omnibus</div>
  <div><h1>${socialCard.headline}</h1>
  <p style="margin-top:20px">Website, point-of-sale, mobile app and the marketplace in one system.</p></div>
  <div class="chips"><span>One-click shipping</span><span>AI product copy</span><span>99.99% uptime</span></div>
</body></html>`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
});
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 630 } });
  await page.setContent(html);
  await page.screenshot({ path: out, type: "jpeg", quality: 86 });
  console.log(`wrote ${out}`);
} finally {
  await browser.close();
}
