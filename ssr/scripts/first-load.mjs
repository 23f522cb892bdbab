// First-load JavaScript of a page: what the document itself loads (React
// Router's client entry with its imports, the root route's module with its
// imports, the page route's module with its imports), from the route manifest
// the client build ships (build/client/assets/manifest-*.js), with raw and
// brotli sizes (the precompressed .br siblings the edge serves).
//
//   node scripts/first-load.mjs [build/client]   prints a table per page type of perf-budget.json
//
// app/perf-budget.test.ts asserts the budget with these functions; make bench prints the table.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync } from "node:zlib";

export const budget = JSON.parse(readFileSync(path.join(import.meta.dirname, "..", "perf-budget.json"), "utf8"));
export const defaultClientDir = path.join(import.meta.dirname, "..", "build", "client");

// The slug of the first article (by file name) in shared/content/<folder>: the
// article page type measured by make lighthouse and checked by make test.
export function firstSlug(folder) {
  const dir = path.join(import.meta.dirname, "..", "..", "shared", "content", folder);
  const file = readdirSync(dir).filter((name) => name.endsWith(".md")).sort()[0];
  return /^slug:\s*(\S+)/m.exec(readFileSync(path.join(dir, file), "utf8"))?.[1] ?? file.replace(/\.md$/, "");
}

/** React Router's manifest of a client build (null when there is no build). */
export function readManifest(clientDir = defaultClientDir) {
  const assets = path.join(clientDir, "assets");
  if (!existsSync(assets)) return null;
  const file = readdirSync(assets).find((name) => /^manifest-.*\.js$/.test(name));
  if (!file) return null;
  const text = readFileSync(path.join(assets, file), "utf8");
  return JSON.parse(text.slice(text.indexOf("=") + 1).replace(/;\s*$/, ""));
}

/** The JS files a document of routeId loads, split into framework and site. */
export function firstLoad(manifest, routeId) {
  const route = manifest.routes[routeId];
  if (!route) throw new Error(`no route ${routeId} in the manifest`);
  const framework = new Set([manifest.entry.module, ...manifest.entry.imports]);
  const site = new Set();
  for (const r of [manifest.routes.root, route]) {
    for (const file of [r.module, ...(r.imports ?? [])]) if (!framework.has(file)) site.add(file);
  }
  return { framework: [...framework], site: [...site] };
}

/** Raw and brotli bytes of files (URLs like /assets/x.js) of a client build. */
export function sizes(files, clientDir = defaultClientDir) {
  let raw = 0;
  let br = 0;
  for (const url of files) {
    const file = path.join(clientDir, url);
    raw += statSync(file).size;
    br += existsSync(file + ".br") ? statSync(file + ".br").size : brotliCompressSync(readFileSync(file)).length;
  }
  return { raw, br };
}

if (process.argv[1] === import.meta.filename) {
  const clientDir = path.resolve(process.argv[2] ?? defaultClientDir);
  const manifest = readManifest(clientDir);
  if (!manifest) {
    console.error(`no client build in ${clientDir}: run make build`);
    process.exit(1);
  }
  const kb = (b) => `${(b / 1024).toFixed(1)} KB`;
  console.log("| First-load JavaScript | Files | Framework (brotli) | Site code (brotli) | Total raw | Total brotli |");
  console.log("|---|--:|--:|--:|--:|--:|");
  for (const [page, routeId] of Object.entries(budget.pages)) {
    const { framework, site } = firstLoad(manifest, routeId);
    const f = sizes(framework, clientDir);
    const s = sizes(site, clientDir);
    console.log(`| \`${page}\` | ${framework.length + site.length} | ${kb(f.br)} | ${kb(s.br)} | ${kb(f.raw + s.raw)} | ${kb(f.br + s.br)} |`);
  }
}
