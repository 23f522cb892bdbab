// Fails when the renderer's modules (ssr/app) import each other in a circle
// (make lint): a circle makes the order modules run in depend on which one is
// loaded first, and means two modules are one concern. What madge --circular
// does, for this tree's two ways of naming a module (relative paths and the
// "~/" alias of ssr/tsconfig.json), without a dependency.
//
//   node scripts/import-cycles.mjs [dir]   (default ssr/app)
import { readFileSync, readdirSync, statSync, existsSync } from "node:fs";
import { join, dirname, resolve, relative } from "node:path";

const appDir = resolve(process.argv[2] ?? "ssr/app");
const exts = [".ts", ".tsx", ".js", ".jsx", ".mjs"];

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (exts.some((e) => name.endsWith(e))) out.push(p);
  }
  return out;
}

// import … from "x", export … from "x", import "x", import("x"); a type-only
// import or export counts too: it still ties the two modules together.
const importPattern = /(?:\bimport|\bexport)\s[^;]*?\bfrom\s*["']([^"']+)["']|\bimport\s*\(?\s*["']([^"']+)["']/g;

function resolveImport(from, spec) {
  let base;
  if (spec.startsWith("~/")) base = join(appDir, spec.slice(2));
  else if (spec.startsWith(".")) base = resolve(dirname(from), spec);
  else return null; // a package, or shared/ through @omnibus/shared
  const candidates = [base, ...exts.map((e) => base + e), ...exts.map((e) => join(base, "index" + e))];
  // "./x.js" naming x.ts (TypeScript's own rule)
  if (/\.(js|jsx|mjs)$/.test(base)) candidates.push(base.replace(/\.(js|jsx|mjs)$/, ".ts"), base.replace(/\.(js|jsx|mjs)$/, ".tsx"));
  return candidates.find((c) => existsSync(c) && statSync(c).isFile() && c.startsWith(appDir)) ?? null;
}

const files = walk(appDir);
const graph = new Map();
let edges = 0;
for (const f of files) {
  const src = readFileSync(f, "utf8");
  const deps = new Set();
  for (const m of src.matchAll(importPattern)) {
    const target = resolveImport(f, m[1] ?? m[2]);
    if (target && target !== f) deps.add(target);
  }
  edges += deps.size;
  graph.set(f, [...deps]);
}

// Every elementary circle found by a depth-first walk (each reported once,
// from its smallest member).
const cycles = new Map();
const state = new Map(); // 1: on the path, 2: done
const path = [];
function visit(f) {
  state.set(f, 1);
  path.push(f);
  for (const d of graph.get(f) ?? []) {
    if (state.get(d) === 1) {
      const cycle = path.slice(path.indexOf(d)).map((p) => relative(appDir, p));
      const start = cycle.indexOf([...cycle].sort()[0]);
      const key = [...cycle.slice(start), ...cycle.slice(0, start)].join(" → ");
      cycles.set(key, true);
    } else if (!state.has(d)) {
      visit(d);
    }
  }
  path.pop();
  state.set(f, 2);
}
for (const f of files) if (!state.has(f)) visit(f);

for (const c of cycles.keys()) console.log(`import circle in ssr/app: ${c}`);
console.log(`import-cycles: ${files.length} modules, ${edges} imports between them, ${cycles.size} circles`);
process.exit(cycles.size > 0 ? 1 : 0);
