// Draws every page's preview image (Open Graph / Twitter card) at build time:
// 1200×630 JPEG, the site's look (public/og-image.jpg's purple card), with the
// page's section and title. Runs after `react-router build` (npm run build):
// the pages, their titles and sections come from the server build itself
// (entry.server.tsx's seoPages, lib/seo.server.tsx), so the images say what
// the pages say, and so does the drawing: the server build's drawCard
// (lib/og-card.server.ts), the one the renderer draws a published article's
// card with when the edge asks (decision 0066).
//
// Each image is named by a hash of its bytes (build/client/assets/og/<page>-<hash>.jpg),
// so the edge serves it like the other hashed assets, cached for a year
// (edge/internal/assets); build/server/og-images.json maps each page's path
// to its image for the renderer's <head> (lib/seo.server.tsx).
//
// The generic card (public/og-image.jpg, shared/content/site.json's socialCard:
// the preview of pages without one of their own) is drawn by the same card,
// with the socialCard's headline and the site's tagline, when the brand or the
// headline changes; the file is committed, so a build does not redraw it.
//
//   node scripts/og-images.mjs [build]     every page's image, after the build
//   node scripts/og-images.mjs --generic   public/og-image.jpg (after a build: it draws with the build's card)
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const generic = process.argv[2] === "--generic";
const buildDir = path.resolve((!generic && process.argv[2]) || path.join(import.meta.dirname, "..", "build"));
const outDir = path.join(buildDir, "client", "assets", "og");

const server = await import(pathToFileURL(path.join(buildDir, "server", "index.js")).href);
const { seoPages, showsSection, articleImageKey, drawCard: draw } = server.entry.module;

if (generic) {
  const site = JSON.parse(readFileSync(path.join(import.meta.dirname, "..", "..", "shared", "content", "site.json"), "utf8"));
  const out = path.join(import.meta.dirname, "..", "public", site.socialCard.src);
  writeFileSync(out, await draw({ title: site.socialCard.headline, description: site.tagline }));
  console.log(`og-images: wrote ${out}`);
  process.exit(0);
}

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
// imageOf). An article staff retitle (or write) gets its card drawn when it
// is published, kept in the edge's database (the content header's card).
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
