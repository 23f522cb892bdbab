// Writes the site's images into ssr/public. The pictures a page shows are
// drawn here as SVG and written as WebP by sharp: the app screenshot (light
// and dark, three widths), the customer logos, the social-icon masks and the
// brand mark. Chromium makes an SVG picture a document of its own, built,
// laid out and painted on the page's main thread (the screenshot's 60 lines
// of text were the longest task of / after the first paint; the twelve
// logos, masks and marks took 130-160 ms), while a WebP decodes off it.
// Also the tab icon, the image placeholder and the PWA icons (PNG).
// The files are committed; run this after changing it:
//   node ssr/scripts/images/make.mjs
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import landing from "@omnibus/shared/content/landing.json" with { type: "json" };
import footer from "@omnibus/shared/content/footer.json" with { type: "json" };
import logos from "@omnibus/shared/content/logos.json" with { type: "json" };
import site from "@omnibus/shared/content/site.json" with { type: "json" };
import { dashboardSVG } from "./dashboard.mjs";

const PUBLIC = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "public");

function write(path, content) {
  const file = join(PUBLIC, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, content);
  console.log(`${path} ${content.length} bytes`);
}

const FONT = `font-family="ui-sans-serif,system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif"`;
const SERIF = `font-family="Georgia,'Times New Roman',serif"`;
// Logos are drawn in one ink colour; the page inverts them in the dark theme.
const INK = "#2b2840";

const logo = (body) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="160" height="48" viewBox="0 0 160 48" fill="${INK}">${body}</svg>\n`;

const LOGOS = {
  "kaveri-handlooms": logo(
    `<path d="M14 38c-4-6-3-16 4-22 3-3 8-4 10-8 2 6-1 10-3 13 4-1 7-4 8-7 3 9-2 20-10 24-3 1-6 1-9 0z"/>` +
      `<text x="42" y="26" ${FONT} font-size="17" font-weight="800" letter-spacing="1.5">KAVERI</text>` +
      `<text x="43" y="40" ${FONT} font-size="8" font-weight="700" letter-spacing="1.2">HANDLOOMS</text>`,
  ),
  "kora-handloom": logo(
    `<g fill="none" stroke="${INK}" stroke-width="3"><path d="M8 12h26M8 20h26M8 28h26M8 36h26"/><path d="M13 8v32M21 8v32M29 8v32" stroke-dasharray="4 4"/></g>` +
      `<text x="44" y="31" ${SERIF} font-size="22" font-style="italic">kora</text>` +
      `<text x="92" y="31" ${FONT} font-size="8" font-weight="700" letter-spacing=".6">HANDLOOM</text>`,
  ),
  "bombay-brew": logo(
    `<path d="M8 18h24v10a10 10 0 0 1-10 10h-4A10 10 0 0 1 8 28z"/><path d="M32 21h3a5 5 0 0 1 0 10h-3v-3h3a2 2 0 0 0 0-4h-3z"/>` +
      `<path d="M15 8c-2 3 2 4 0 7M21 8c-2 3 2 4 0 7" fill="none" stroke="${INK}" stroke-width="2" stroke-linecap="round"/>` +
      `<text x="46" y="25" ${FONT} font-size="15" font-weight="800">Bombay</text>` +
      `<text x="46" y="40" ${FONT} font-size="13" font-weight="400" letter-spacing="1">Brew Co.</text>`,
  ),
  "nilgiri-naturals": logo(
    `<path d="M4 38 17 16l7 11 6-8 12 19z"/><circle cx="34" cy="11" r="4"/>` +
      `<text x="50" y="29" ${FONT} font-size="18" font-weight="700">Nilgiri</text>` +
      `<text x="50" y="41" ${FONT} font-size="8.5" font-weight="600" letter-spacing="2.6">NATURALS</text>`,
  ),
  "sutra-jewels": logo(
    `<path d="M10 18 16 10h12l6 8-12 20zM16 10l6 8 6-8M10 18h24" fill="none" stroke="${INK}" stroke-width="2.5" stroke-linejoin="round"/>` +
      `<text x="46" y="31" ${SERIF} font-size="20" letter-spacing="5">SUTRA</text>`,
  ),
  "ghar-decor": logo(
    `<path d="M6 22 21 9l15 13v16H6z"/><path d="M17 38V28h8v10" fill="#fff"/>` +
      `<text x="46" y="32" ${FONT} font-size="20" font-weight="300">ghar<tspan font-weight="800">decor</tspan></text>`,
  ),
  "urban-tiffin": logo(
    `<rect x="9" y="14" width="24" height="7" rx="2"/><rect x="9" y="23" width="24" height="7" rx="2"/><rect x="9" y="32" width="24" height="7" rx="2"/>` +
      `<path d="M13 14V8a8 8 0 0 1 16 0v6" fill="none" stroke="${INK}" stroke-width="2.5"/>` +
      `<text x="44" y="25" ${FONT} font-size="13" font-weight="800" letter-spacing="1">URBAN</text>` +
      `<text x="44" y="40" ${FONT} font-size="13" font-weight="400" letter-spacing="1">TIFFIN</text>`,
  ),
  "pedal-pune": logo(
    `<circle cx="21" cy="24" r="14" fill="none" stroke="${INK}" stroke-width="3"/><circle cx="21" cy="24" r="3"/>` +
      `<path d="M21 10v28M7 24h28M11 14l20 20M31 14 11 34" stroke="${INK}" stroke-width="1.2"/>` +
      `<text x="44" y="30" ${FONT} font-size="16.5" font-weight="800" font-style="italic">Pedal Pune</text>`,
  ),
  "vastra-lane": logo(
    `<path d="M21 10a4 4 0 1 1 4 4c-2 0-4 1-4 3v1L6 31a3 3 0 0 0 2 5h26a3 3 0 0 0 2-5L21 18" fill="none" stroke="${INK}" stroke-width="2.5" stroke-linecap="round" stroke-linejoin="round"/>` +
      `<text x="44" y="30" ${SERIF} font-size="19" font-style="italic">Vastra Lane</text>`,
  ),
};

// Social icons are used as CSS masks, so only their shape matters (evenodd holes);
// they are written as WebP (below).
const social = (d) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24"><path fill="#000" fill-rule="evenodd" d="${d}"/></svg>\n`;

const SOCIALS = {
  linkedin: social(
    "M4 2h16a2 2 0 0 1 2 2v16a2 2 0 0 1-2 2H4a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2zM6 9.5h3V18H6zM7.5 5.3a1.7 1.7 0 1 1 0 3.4 1.7 1.7 0 1 1 0-3.4zM11 9.5h2.9v1.3c.5-.9 1.6-1.5 2.9-1.5 2.3 0 3.2 1.4 3.2 3.8V18h-3v-4.3c0-1.1-.3-1.9-1.4-1.9s-1.6.8-1.6 1.9V18h-3z",
  ),
  x: social("M3 3h5.4l4.2 5.8L17.6 3H21l-7 8 7.6 10h-5.4l-4.6-6.2L6.2 21H2.8l7.3-8.5zM6.2 4.7l10.8 14.6h1.8L8 4.7z"),
  instagram: social(
    "M7 2h10a5 5 0 0 1 5 5v10a5 5 0 0 1-5 5H7a5 5 0 0 1-5-5V7a5 5 0 0 1 5-5zM7 4a3 3 0 0 0-3 3v10a3 3 0 0 0 3 3h10a3 3 0 0 0 3-3V7a3 3 0 0 0-3-3zM12 7a5 5 0 1 1 0 10 5 5 0 1 1 0-10zM12 9a3 3 0 1 0 0 6 3 3 0 1 0 0-6zM17.5 5.2a1.3 1.3 0 1 1 0 2.6 1.3 1.3 0 1 1 0-2.6z",
  ),
  youtube: social(
    "M2.5 7.2c.2-1.6 1.4-2.7 3-2.8C8 4.2 10 4.1 12 4.1s4 .1 6.5.3c1.6.1 2.8 1.2 3 2.8.2 1.6.3 3.2.3 4.8s-.1 3.2-.3 4.8c-.2 1.6-1.4 2.7-3 2.8-2.5.2-4.5.3-6.5.3s-4-.1-6.5-.3c-1.6-.1-2.8-1.2-3-2.8-.2-1.6-.3-3.2-.3-4.8s.1-3.2.3-4.8zM10 8.6v6.8l5.8-3.4z",
  ),
  facebook: social(
    "M12 2a10 10 0 1 0 0 20 10 10 0 1 0 0-20zM13.6 21.6v-7.1h2.5l.4-3h-2.9V9.7c0-.9.3-1.5 1.5-1.5h1.6V5.5c-.3 0-1.2-.1-2.3-.1-2.3 0-3.9 1.4-3.9 4v2.1H8v3h2.5v7.1z",
  ),
};

const MARK = `<svg xmlns="http://www.w3.org/2000/svg" width="48" height="48" viewBox="0 0 48 48"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#7447fa"/><stop offset="1" stop-color="#14b8a6"/></linearGradient></defs><rect width="48" height="48" rx="11" fill="url(#g)"/><g fill="#fff"><path d="M24 11.5a12.5 12.5 0 1 1 0 25 12.5 12.5 0 1 1 0-25zm0 5.2a7.3 7.3 0 1 0 0 14.6 7.3 7.3 0 1 0 0-14.6z"/><circle cx="24" cy="6.5" r="2.6"/><circle cx="41.5" cy="24" r="2.6"/><circle cx="24" cy="41.5" r="2.6"/><circle cx="6.5" cy="24" r="2.6"/></g></svg>\n`;

// No width, height or viewBox: no intrinsic ratio, so the <img> keeps the box
// its width and height attributes give it (SPEC §4: a placeholder of the same size).
const PLACEHOLDER = `<svg xmlns="http://www.w3.org/2000/svg"><rect width="100%" height="100%" fill="#e7e5ef"/><svg x="50%" y="50%" overflow="visible"><g transform="translate(-20 -16)" fill="none" stroke="#9a96b3" stroke-width="2.5" stroke-linejoin="round"><rect x="1" y="1" width="38" height="30" rx="4"/><circle cx="12" cy="11" r="4"/><path d="M2 27l11-10 8 7 6-5 12 10"/></g></svg></svg>\n`;

// The files landing.json's srcsets name, each at its width.
const shot = landing.hero.screenshot;
for (const [theme, set] of [["light", shot.srcSet], ["dark", shot.darkSrcSet]]) {
  const svg = Buffer.from(dashboardSVG(theme));
  for (const candidate of set.split(",")) {
    const [url, w] = candidate.trim().split(" ");
    const width = parseInt(w, 10);
    // density: the SVG is shot.width px wide at 72 dpi; draw it at the target width, not scaled.
    const webp = await sharp(svg, { density: (72 * width) / shot.width }).resize(width).webp({ quality: 82 }).toBuffer();
    write(url.slice(1), webp);
  }
}
// The files logos.json names: lossless WebP (flat ink, sharp edges), 400 px
// wide for a logo shown at most 134 px wide, so sharp up to 3x.
const LOGO_WIDTH = 400;
for (const { id, logo } of logos.logos) {
  if (!LOGOS[id]) throw new Error(`logos.json names ${id}, which make.mjs does not draw`);
  const webp = await sharp(Buffer.from(LOGOS[id]), { density: (72 * LOGO_WIDTH) / logos.width }).resize(LOGO_WIDTH).webp({ lossless: true, effort: 6 }).toBuffer();
  write(logo.slice(1), webp);
}
// The masks footer.json names: lossless WebP, the shape in its alpha, at 3x
// of the 24 px drawing (shown at 20 px).
for (const { icon } of footer.socials) {
  const id = icon.match(/([a-z]+)\.webp$/)?.[1];
  if (!SOCIALS[id]) throw new Error(`footer.json names ${icon}, which make.mjs does not draw`);
  write(icon.slice(1), await sharp(Buffer.from(SOCIALS[id]), { density: 72 * 3 }).webp({ lossless: true, effort: 6 }).toBuffer());
}
// The mark: in the page (header 28 px, footer 40 px: site.json) a WebP, 3x of
// 40 px (lossy: the gradient; quality 70 is 1.7 KB against 2.6 at 90, with no
// edge a phone's screen shows apart, and the first visit of / is its byte
// budget); in the browser's tab a 48 px PNG (an SVG tab icon, too, became a
// document on the page's main thread: 9-14 ms).
write("favicon.png", await sharp(Buffer.from(MARK), { density: 72 }).resize(48).png({ compressionLevel: 9 }).toBuffer());
write(site.logo.src.slice(1), await sharp(Buffer.from(MARK), { density: (72 * 120) / 48 }).resize(120).webp({ quality: 70, effort: 6 }).toBuffer());
write("images/placeholder.svg", PLACEHOLDER);
// The PWA icons: the same mark. A maskable icon fills its whole square (the
// launcher cuts its own shape) and keeps the mark inside the 80% safe zone.
const MASKABLE = MARK.replace('rx="11" ', "").replace('<g fill="#fff">', '<g fill="#fff" transform="translate(24 24) scale(0.72) translate(-24 -24)">');
const icon = (svg, size) => sharp(Buffer.from(svg), { density: (72 * size) / 48 }).resize(size).png({ compressionLevel: 9 }).toBuffer();
write("icons/icon-192.png", await icon(MARK, 192));
write("icons/icon-512.png", await icon(MARK, 512));
write("icons/maskable-512.png", await icon(MASKABLE, 512));
write("icons/apple-touch-icon.png", await icon(MASKABLE, 180));
