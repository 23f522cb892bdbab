// make bench's side-by-side report: the page-speed figures
// (first visit, heads, miss cost, warming, signed-in pages), this run's beside the earlier ones (docs/performance.md holds the
// history), as one Markdown table appended to bench/RESULTS.md.
//
// Input: a JSON file (argument 1) that bench/run.sh writes with this run's
// figures: { dc, d, c, warmMs, warmPages, heads: [{ answer, bytes }], signedIn? }.
// First-visit bytes per page type come from make lighthouse's last run
// (ssr/lighthouse-results/summary.json), with its date: a Lighthouse run
// per page type is minutes of Chromium, not part of make bench.
//
// signedIn (another change's row): { signedIn: [rps, p50, p99],
// anonymous: [rps, p50, p99], anonymousLabel } when run.sh measured it; the
// row says "not measured" otherwise.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

const root = path.join(import.meta.dirname, "..");
const run = JSON.parse(readFileSync(process.argv[2], "utf8"));

// The earlier figures, from docs/performance.md (measured on `make run` or `make bench`).
const EARLIER = {
  headStatic: "1,097-1,176 B (before static answers were made lean: the page's whole header set on every static answer)",
  headPage: "1,515 B (2026-11-25, before this round)",
  firstVisit: { "/": "237 KB, 31 requests; 204.7 KB, 27 requests (2026-11-25, before the pictures, manifest and worker waited)" },
  dc: "0.52-0.70 (four runs, 2026-11-24; forced miss on / then)",
  warm: "none: each page's first visitor waited for its render (before warming at start)",
  signedIn: "signed-in / 213 req/s p99 442 ms against /login 444 req/s p99 132 ms (one edge on PostgreSQL)",
};

const kb = (b) => `${(b / 1024).toFixed(1)} KB`;
const rows = [];
const row = (what, now, before, goal) => rows.push(`| ${what} | ${now} | ${before} | ${goal} |`);

for (const h of run.heads ?? []) {
  const page = /^page/.test(h.answer);
  row(`Response head: ${h.answer}`, `${h.bytes} B`, page ? EARLIER.headPage : EARLIER.headStatic, page ? "every security header" : "≤ 400 B");
}

const summaryFile = path.join(root, "ssr", "lighthouse-results", "summary.json");
if (existsSync(summaryFile)) {
  const summary = JSON.parse(readFileSync(summaryFile, "utf8"));
  for (const p of summary.pages.filter((p) => !p.floor && p.total !== undefined)) {
    row(
      `First visit of \`${p.page}\` (Lighthouse mobile, median of ${summary.runs}, ${summary.measured.slice(0, 16).replace("T", " ")} UTC)`,
      `${kb(p.total)}, ${p.requests} requests; Perf ${p.performance}`,
      EARLIER.firstVisit[p.page] ?? "not measured before",
      p.page === "/" ? "≤ 180 KB" : "",
    );
  }
} else {
  row("First visit, per page type", "no make lighthouse run yet (ssr/lighthouse-results/summary.json)", EARLIER.firstVisit["/"], "≤ 180 KB on /");
}

row("d/c: a miss through the edge vs the renderer alone", `${run.dc} (${run.d} vs ${run.c} renders/s, same page)`, EARLIER.dc, "≥ 0.9");

if (run.signedIn) {
  const [rps, p50, p99] = run.signedIn.signedIn;
  const [arps, , ap99] = run.signedIn.anonymous;
  row(
    `Signed-in / vs ${run.signedIn.anonymousLabel ?? "/login"} (anonymous, uncached)`,
    `${rps} vs ${arps} req/s (${(rps / arps).toFixed(3)}); p99 ${p99} vs ${ap99} ms (p50 ${p50})`,
    EARLIER.signedIn,
    "≥ 0.9×, p99 ≤ 2×",
  );
} else {
  row("Signed-in / vs /login", "not measured by this run", EARLIER.signedIn, "≥ 0.9×, p99 ≤ 2×");
}

row("Cache warm-up of the whole route table at start", `${run.warmPages} pages in ${run.warmMs} ms`, EARLIER.warm, "first visitor gets a hit");

console.log("| Figure | This run | Earlier | Goal |");
console.log("|---|---|---|---|");
console.log(rows.join("\n"));
