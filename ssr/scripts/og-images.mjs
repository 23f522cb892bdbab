// Draws every page's preview image (Open Graph / Twitter card) at build time:
// 1200×630 JPEG, the site's look (public/og-image.jpg's purple card), with the
// page's section and title. Runs after `react-router build` (npm run build):
// the pages, their titles and sections come from the server build itself
// (entry.server.tsx's seoPages, lib/seo.server.tsx), so the images say what
// the pages say. Text is laid out by satori with Inter from @fontsource/inter
// (a package: nothing is fetched) into an SVG of paths, which sharp turns
// into a JPEG.
//
// Each image is named by a hash of its bytes (build/client/assets/og/<page>-<hash>.jpg),
// so the edge serves it like the other hashed assets, cached for a year
// (edge/internal/assets); build/server/og-images.json maps each page's path
// to its image for the renderer's <head> (lib/seo.server.tsx). Nothing is
// drawn at request time.
//
// The generic card (public/og-image.jpg, shared/content/site.json's socialCard:
// the preview of pages without one of their own) is drawn by the same card,
// with the socialCard's headline and the site's tagline, when the brand or the
// headline changes; the file is committed, so a build does not redraw it.
//
//   node scripts/og-images.mjs [build]     every page's image, after the build
//   node scripts/og-images.mjs --generic   public/og-image.jpg
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import satori from "satori";
import sharp from "sharp";

const generic = process.argv[2] === "--generic";
const buildDir = path.resolve((!generic && process.argv[2]) || path.join(import.meta.dirname, "..", "build"));
const outDir = path.join(buildDir, "client", "assets", "og");
const WIDTH = 1200;
const HEIGHT = 630;

const require = createRequire(import.meta.url);
const font = (weight) => readFileSync(require.resolve(`@fontsource/inter/files/inter-latin-${weight}-normal.woff`));
const fonts = [
  { name: "Inter", data: font(400), weight: 400, style: "normal" },
  { name: "Inter", data: font(800), weight: 800, style: "normal" },
];


/** A satori element: {type, props: {style, children}}. */
const h = (type, style, ...children) => ({ type, props: { style, children: children.length === 1 ? children[0] : children } });

/** At most max characters, cut at a word, with an ellipsis. */
function clip(text, max) {
  if (text.length <= max) return text;
  return text.slice(0, text.lastIndexOf(" ", max)).replace(/[,;:.\s—-]+$/, "") + "…";
}

function card(page) {
  const title = clip(page.title, 110);
  const size = title.length <= 40 ? 76 : title.length <= 70 ? 64 : 54;
  return h(
    "div",
    {
      width: WIDTH,
      height: HEIGHT,
      boxSizing: "border-box",
      display: "flex",
      flexDirection: "column",
      justifyContent: "space-between",
      padding: "72px 88px",
      color: "#ffffff",
      fontFamily: "Inter",
      backgroundColor: "#5519d6",
      backgroundImage: "radial-gradient(circle at 88% 12%, #14b8a6 0%, rgba(20,184,166,0) 38%), linear-gradient(135deg, #230a61 0%, #5519d6 55%, #7447fa 100%)",
    },
    h(
      "div",
      { display: "flex", alignItems: "center", gap: 22, fontSize: 44, fontWeight: 800, letterSpacing: -1 },
      h(
        "div",
        { width: 72, height: 72, borderRadius: 20, backgroundColor: "rgba(255,255,255,0.14)", display: "flex", alignItems: "center", justifyContent: "center" },
        h("div", { width: 46, height: 46, borderRadius: 23, border: "8px solid #ffffff", display: "flex", alignItems: "center", justifyContent: "center" }, h("div", { width: 12, height: 12, borderRadius: 6, backgroundColor: "#ffffff" })),
      ),
      "Omnibus",
    ),
    h(
      "div",
      { display: "flex", flexDirection: "column" },
      page.section ? h("div", { display: "flex", fontSize: 28, fontWeight: 800, color: "#99f6e4", letterSpacing: 2, textTransform: "uppercase", marginBottom: 20 }, page.section) : h("div", { display: "flex" }),
      h("div", { display: "flex", fontSize: size, fontWeight: 800, lineHeight: 1.08, letterSpacing: -2, maxWidth: 1000 }, title),
      h("div", { display: "flex", fontSize: 28, fontWeight: 400, lineHeight: 1.35, opacity: 0.85, marginTop: 24, maxWidth: 980 }, clip(page.description, 130)),
    ),
  );
}

/** The card as JPEG bytes. */
async function draw(page) {
  const svg = await satori(card(page), { width: WIDTH, height: HEIGHT, fonts });
  return sharp(Buffer.from(svg)).jpeg({ quality: 86, mozjpeg: true }).toBuffer();
}

if (generic) {
  const site = JSON.parse(readFileSync(path.join(import.meta.dirname, "..", "..", "shared", "content", "site.json"), "utf8"));
  const out = path.join(import.meta.dirname, "..", "public", site.socialCard.src);
  writeFileSync(out, await draw({ title: site.socialCard.headline, description: site.tagline }));
  console.log(`og-images: wrote ${out}`);
  process.exit(0);
}

const server = await import(pathToFileURL(path.join(buildDir, "server", "index.js")).href);
const { seoPages, showsSection, articleImageKey } = server.entry.module;

/** "/" → "home", "/blog/article/x" → "blog-article-x". */
const fileStem = (p) => (p === "/" ? "home" : p.slice(1).replace(/[^a-z0-9]+/gi, "-").toLowerCase());

rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
const manifest = {};
let bytes = 0;
const started = performance.now();
for (const page of seoPages()) {
  const jpeg = await draw({ ...page, section: showsSection(page) ? page.section : undefined });
  const name = `${fileStem(page.path)}-${createHash("sha256").update(jpeg).digest("hex").slice(0, 10)}.jpg`;
  writeFileSync(path.join(outDir, name), jpeg);
  manifest[page.path] = `/assets/og/${name}`;
  bytes += jpeg.length;
}
// The articles live in the edge's content store, not in the build: the
// build draws the repository's own articles and help topics (the store's first revisions), keyed by
// their path and the words the card shows, and the renderer uses one only
// while the live article still says those words (lib/seo.server.tsx
// imageOf); an article staff retitled shows the site's generic card.
const contentDir = path.join(import.meta.dirname, "..", "..", "shared", "content");
const frontMatter = (text) => {
  const head = /^---\n([\s\S]*?)\n---/.exec(text)?.[1] ?? "";
  const field = (name) => {
    const raw = new RegExp(`^${name}:\\s*(.*)$`, "m").exec(head)?.[1]?.trim() ?? "";
    return /^".*"$/.test(raw) ? JSON.parse(raw) : raw;
  };
  return { slug: field("slug"), title: field("title"), description: field("description") };
};
for (const [folder, prefix, section] of [["blog", "/blog/article/", "Blog"], ["help", "/help/category/article/", "Help centre"]]) {
  for (const file of readdirSync(path.join(contentDir, folder)).filter((f) => f.endsWith(".md"))) {
    const a = frontMatter(readFileSync(path.join(contentDir, folder, file), "utf8"));
    if (!a.slug || !a.title) continue;
    const page = { path: prefix + a.slug, title: a.title, description: a.description, section };
    const jpeg = await draw(page);
    const name = `${fileStem(page.path)}-${createHash("sha256").update(jpeg).digest("hex").slice(0, 10)}.jpg`;
    writeFileSync(path.join(outDir, name), jpeg);
    manifest[articleImageKey(page)] = `/assets/og/${name}`;
    bytes += jpeg.length;
  }
}
const categories = JSON.parse(readFileSync(path.join(contentDir, "help", "categories.json"), "utf8")).categories;
for (const c of categories) {
  const page = { path: `/help/category/${c.slug}`, title: c.title, description: c.description, section: "Help centre" };
  const jpeg = await draw(page);
  const name = `${fileStem(page.path)}-${createHash("sha256").update(jpeg).digest("hex").slice(0, 10)}.jpg`;
  writeFileSync(path.join(outDir, name), jpeg);
  manifest[articleImageKey(page)] = `/assets/og/${name}`;
  bytes += jpeg.length;
}
writeFileSync(path.join(buildDir, "server", "og-images.json"), JSON.stringify(manifest, null, 1) + "\n");
const count = Object.keys(manifest).length;
console.log(`og-images: ${count} preview images (${Math.round(bytes / count / 1024)} KB each on average) in ${Math.round(performance.now() - started)} ms`);
// The server build's modules (logger, metrics) may keep timers: this script is done.
process.exit(0);
