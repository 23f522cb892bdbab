// Writes a .br and a .gz sibling next to every compressible file of the
// client build, so the edge can answer Accept-Encoding without compressing
// anything per request (edge/internal/assets picks the sibling).
//
// It runs after `react-router build` rather than as a Vite plugin because
// React Router writes some client files (manifest-*.js, the route entry) and
// vite-plugin-pwa writes sw.js after Vite's client bundle is closed; a plugin
// missed those. Node's zlib does the work at the highest settings: build time
// is paid once, the bytes saved on every visit.
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

// The client build of the site, or of another app given as an argument (bench/floor).
const root = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, "../build/client"));
const compressible = /\.(js|mjs|css|html|svg|json|webmanifest|xml|txt)$/;
const threshold = 1024; // smaller files gain too little to be worth a second lookup
// The service worker is left as it is: browsers re-fetch it on every update
// check, and a sibling gone stale would hide an update from every visitor.
const skip = new Set(["sw.js"]);

let files = 0;
let before = 0;
let after = 0;
for (const rel of readdirSync(root, { recursive: true })) {
  const file = path.join(root, rel);
  if (skip.has(rel) || !compressible.test(file) || !statSync(file).isFile()) continue;
  const raw = readFileSync(file);
  if (raw.length < threshold) continue;
  const br = brotliCompressSync(raw, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
    },
  });
  writeFileSync(file + ".br", br);
  writeFileSync(file + ".gz", gzipSync(raw, { level: 9 }));
  files++;
  before += raw.length;
  after += br.length;
}
console.log(`precompressed ${files} files: ${(before / 1024).toFixed(0)} KB → ${(after / 1024).toFixed(0)} KB brotli`);
