// Writes isbot's pattern list (the renderer's bot test, ssr/app/entry.server.tsx)
// into shared/bots.json, so the edge counts crawlers by the same list
// (edge/internal/analytics). Keeps the file's hand-kept "crawlers" names.
// Run after upgrading isbot: `node ssr/scripts/bots.mjs`; app/lib/bots.test.ts
// fails while the two differ.
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { list } from "isbot";

const file = new URL("../../shared/bots.json", import.meta.url);
const current = JSON.parse(readFileSync(file, "utf8"));
const version = createRequire(import.meta.url)("isbot/package.json").version;
const next = { ...current, isbotVersion: version, patterns: list };
writeFileSync(file, JSON.stringify(next, null, 2) + "\n");
console.log(`shared/bots.json: isbot ${version}, ${list.length} patterns`);
