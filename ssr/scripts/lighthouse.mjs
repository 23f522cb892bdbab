// `make lighthouse`: Lighthouse (default mobile emulation and simulated
// throttling) in Debian's Chromium on every page type, three runs each,
// against the built edge and renderer started here on loopback, and on the
// floor: a bare React Router 7 page with the same framework set-up
// (bench/floor, built by the make target) served by a second instance of the
// same edge binary. Prints one table (every run, then the median per page)
// and writes it to ssr/lighthouse-results/RESULTS.md with each run's
// JSON report beside it. Every row carries the machine's 1-minute load
// average: simulated throttling scales the CPU time it measures, so on a busy
// machine FCP/LCP/TBT grow; the byte columns do not vary with load.
//
// Each run loads the page twice: with Lighthouse's default simulated
// throttling (the scores, FCP, LCP, bytes), and with the same mobile
// throttling applied (CPU 4× slower and Slow 4G, in the browser through
// DevTools: "applied" below), which measures the main thread's tasks rather
// than estimating where they fall. The main-thread goals against the floor
// are read from the applied run: the simulation estimates a page's first
// paint from its render-blocking requests, leaving out the browser's own
// start of the document (its CommitNavigation, 18-41 ms on this machine, the
// floor's too), so on a page with no render-blocking request that task, and
// the page's own parse, fall after the estimated first paint and count as
// blocking, while the floor's render-blocking scripts push its estimate past
// them (docs/decisions/0070-inline-css-cut-to-the-page.md has the traces).
//
// Exits 1 when a page's median misses a goal: Performance ≥ 99, the other
// three categories 100 (SEO of a noindex page: its audits but is-crawlable,
// which must fail there), FCP ≤ 1.2 s, LCP ≤ 1.5 s, TBT ≤ 50 ms (simulated),
// CLS 0; and, against the floor's medians of the same run (absolute timings
// move with the machine and its load, ratios much less), TBT (applied) ≤ 1.0×
// the floor's, script evaluation ≤ 1.5× the floor's, no task over 50 ms after
// First Contentful Paint (applied), Performance ≥ the floor's. The simulated
// TBT's ratio is printed too. The floor and the pages take turns, run by run,
// so a busy minute falls on both.
//
// Knobs: LIGHTHOUSE_RUNS (default 3), LIGHTHOUSE_PORT (default 8097; the floor
// uses the next port), LIGHTHOUSE_PAGES (comma-separated paths, default all),
// LIGHTHOUSE_SSR_DIR (a copy of server.js + build/ to measure, an earlier build say).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { matchPath } from "react-router";
import { firstSlug } from "./first-load.mjs";
import { startEdge as startLocalEdge, stop } from "./local-edge.mjs";

const ssrDir = path.join(import.meta.dirname, "..");
const rootDir = path.join(ssrDir, "..");
const PORT = Number(process.env.LIGHTHOUSE_PORT ?? 8097);
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
// Not under test-results/: Playwright empties its outputDir at the start of every e2e run.
const OUT_DIR = path.join(ssrDir, "lighthouse-results");
const FLOOR_DIR = path.join(rootDir, "bench", "floor");

const PAGES = (process.env.LIGHTHOUSE_PAGES?.split(",") ?? [
  "/",
  "/features",
  "/blog",
  `/blog/article/${firstSlug("blog")}`,
  "/help",
  `/help/category/article/${firstSlug("help")}`,
  "/contact-us",
  "/login",
]).map((p) => p.trim());

// Pages the route table keeps out of search engines on purpose (noindex: a
// sign-in step, say). Lighthouse's SEO category counts "is-crawlable" against
// them; their SEO goal is every other SEO audit, and that they are indeed
// not crawlable (a page marked noindex that crawlers may index is a miss).
const NOINDEX = JSON.parse(readFileSync(path.join(rootDir, "shared", "routes.json"), "utf8")).routes.filter((r) => r.noindex).map((r) => r.path);
const noindexPage = (pagePath) => NOINDEX.some((pattern) => matchPath(pattern, pagePath));

/** A noindex page's SEO score: every SEO audit but "is-crawlable", which must fail there (0 when it does not). */
function noindexSeoScore(lhr) {
  if (lhr.audits["is-crawlable"].score !== 0) return 0;
  const refs = lhr.categories.seo.auditRefs.filter((r) => r.id !== "is-crawlable" && r.weight > 0 && lhr.audits[r.id].score !== null);
  const weight = refs.reduce((sum, r) => sum + r.weight, 0);
  return Math.round((refs.reduce((sum, r) => sum + r.weight * lhr.audits[r.id].score, 0) / weight) * 100);
}

// The goals, from the one budget file (ssr/perf-budget.json).
const goals = JSON.parse(readFileSync(path.join(ssrDir, "perf-budget.json"), "utf8")).lighthouse;
const GOAL = { ...goals, fcp: goals.fcpMs, lcp: goals.lcpMs, tbt: goals.tbtMs };

/** The edge on loopback with a renderer child (SSR_DIR) and a throw-away SQLite. */
const startEdge = (port, ssrAppDir, name) => startLocalEdge(port, ssrAppDir, path.join(OUT_DIR, `${name}-edge.log`));

const load = () => os.loadavg()[0];

/** One Lighthouse report of url (throttlingMethod: "simulate", Lighthouse's default, or "devtools": applied). */
async function report(url, chromePort, label, run, throttlingMethod) {
  const { lhr } = await lighthouse(url, { port: chromePort, output: "json", logLevel: "error", throttlingMethod });
  // A run Lighthouse itself could not record (NO_NAVSTART, say, on a busy
  // machine) has no figures: the caller runs it again.
  if (lhr.runtimeError) throw new Error(`Lighthouse could not measure ${url}: ${lhr.runtimeError.code}`);
  const suffix = throttlingMethod === "devtools" ? "-applied" : "";
  writeFileSync(path.join(OUT_DIR, `${label.replace(/[^a-z0-9]+/gi, "_")}-${run}${suffix}.json`), JSON.stringify(lhr));
  return lhr;
}

/** The main thread in a report: TBT, script evaluation, and the tasks over 50 ms that start after FCP. */
function mainThread(lhr) {
  const fcp = lhr.audits["first-contentful-paint"].numericValue;
  const long = (lhr.audits["long-tasks"].details?.items ?? []).filter((t) => t.startTime >= fcp && t.duration > 50);
  return {
    tbt: lhr.audits["total-blocking-time"].numericValue,
    script: (lhr.audits["mainthread-work-breakdown"].details?.items ?? []).find((i) => i.group === "scriptEvaluation")?.duration ?? 0,
    longTasks: long.length,
    longest: Math.max(0, ...long.map((t) => t.duration)),
  };
}

/** One run of a page, simulated then applied: the figures of the table. */
async function audit(url, chromePort, label, run) {
  const loadBefore = load();
  const lhr = await report(url, chromePort, label, run, "simulate");
  const applied = mainThread(await report(url, chromePort, label, run, "devtools"));
  const score = (id) => Math.round((lhr.categories[id].score ?? 0) * 100);
  const num = (id) => lhr.audits[id].numericValue;
  // Script evaluation (Lighthouse's main-thread breakdown, simulated 4x CPU).
  const { script } = mainThread(lhr);
  const bytes = { Script: 0, Stylesheet: 0, Document: 0 };
  // Every byte the first visit moved (≤ 180 KB on /), and how many requests.
  let total = 0;
  let requests = 0;
  for (const item of lhr.audits["network-requests"].details?.items ?? []) {
    if (item.resourceType in bytes) bytes[item.resourceType] += item.transferSize ?? 0;
    total += item.transferSize ?? 0;
    if (!item.url.startsWith("data:")) requests++;
  }
  return {
    page: label,
    performance: score("performance"),
    accessibility: score("accessibility"),
    "best-practices": score("best-practices"),
    seo: noindexPage(new URL(url).pathname) ? noindexSeoScore(lhr) : score("seo"),
    fcp: num("first-contentful-paint"),
    lcp: num("largest-contentful-paint"),
    tbt: num("total-blocking-time"),
    cls: num("cumulative-layout-shift"),
    script,
    appliedTbt: applied.tbt,
    longTasks: applied.longTasks,
    longest: applied.longest,
    js: bytes.Script,
    css: bytes.Stylesheet,
    html: bytes.Document,
    total,
    requests,
    load: Math.max(loadBefore, load()),
  };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function medianRow(rows) {
  const m = { page: rows[0].page, median: true };
  for (const key of Object.keys(rows[0])) if (typeof rows[0][key] === "number") m[key] = median(rows.map((r) => r[key]));
  return m;
}

/** Which goals a median row misses ("" when none); floor: the floor's median row of the same run. */
function misses(m, floor) {
  const out = [];
  if (floor) {
    if (m.appliedTbt > floor.appliedTbt * 1.0) out.push("TBT (applied) > floor");
    if (m.script > floor.script * 1.5) out.push("script > 1.5× floor");
    if (m.longTasks > 0) out.push("task > 50 ms after FCP (applied)");
    if (m.performance < floor.performance) out.push("Perf < floor");
  }
  for (const id of ["performance", "accessibility", "best-practices", "seo"]) if (m[id] < GOAL[id]) out.push(id);
  if (m.fcp > GOAL.fcp) out.push("FCP");
  if (m.lcp > GOAL.lcp) out.push("LCP");
  if (m.tbt > GOAL.tbt) out.push("TBT");
  if (m.cls > GOAL.cls) out.push("CLS");
  return out.join(", ");
}

const kb = (b) => (b / 1024).toFixed(1);
const s = (ms) => (ms / 1000).toFixed(2);
const ratio = (a, b) => (b > 0 ? (a / b).toFixed(2) : a > 0 ? "∞" : "1.00");
function line(r, floor) {
  const name = r.median && RUNS > 1 ? `**${r.page} (median)**` : r.page;
  const verdict = r.median ? (r.floor ? "floor" : misses(r, floor) ? `✗ ${misses(r, floor)}` : "✓") : "";
  const ratios = r.median && floor ? `${ratio(r.tbt, floor.tbt)} | ${ratio(r.appliedTbt, floor.appliedTbt)} | ${ratio(r.script, floor.script)}` : " | | ";
  return `| ${name} | ${r.performance} | ${r.accessibility} | ${r["best-practices"]} | ${r.seo} | ${s(r.fcp)} | ${s(r.lcp)} | ${Math.round(r.tbt)} | ${Math.round(r.appliedTbt)} | ${Math.round(r.script)} | ${ratios} | ${r.longTasks} | ${Math.round(r.longest)} | ${r.cls.toFixed(3)} | ${kb(r.js)} | ${kb(r.css)} | ${kb(r.html)} | ${kb(r.total)} | ${r.requests} | ${r.load.toFixed(1)} | ${verdict} |`;
}

mkdirSync(OUT_DIR, { recursive: true });
const site = await startEdge(PORT, process.env.LIGHTHOUSE_SSR_DIR ?? ssrDir, "site");
const floor = await startEdge(PORT + 1, FLOOR_DIR, "floor").catch(async (error) => {
  await stop(site.edge);
  throw error;
});
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, async () => {
    await chrome?.kill();
    await Promise.all([stop(site.edge), stop(floor.edge)]);
    process.exit(130);
  });
}
let chrome;
chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
});
const table = [];
let floorMedian;
let failed = false;
try {
  const floorTarget = { url: floor.origin + "/", label: "floor: bare React Router", floor: true };
  const targets = [floorTarget, ...PAGES.map((p) => ({ url: site.origin + p, label: p }))];
  for (const target of targets) await fetch(target.url); // the page cache is warm, as for a real visitor after the first
  // Run by run, the floor and every page in turn: the ratios compare runs taken minutes, not a quarter of an hour, apart.
  const runs = new Map(targets.map((t) => [t, []]));
  for (let run = 1; run <= RUNS; run++) {
    for (const target of targets) {
      let row;
      for (let attempt = 1; !row; attempt++) {
        row = await audit(target.url, chrome.port, target.label, run).catch((error) => {
          if (attempt === 3) throw error;
          console.error(`${target.label} run ${run}: ${error.message}; again`);
        });
      }
      runs.get(target).push(row);
      console.error(`${target.label} run ${run}: performance ${row.performance}, TBT ${Math.round(row.tbt)} ms (applied ${Math.round(row.appliedTbt)} ms), script ${Math.round(row.script)} ms, load ${row.load.toFixed(1)}`);
    }
  }
  floorMedian = { ...medianRow(runs.get(floorTarget)), floor: true };
  for (const target of targets) {
    const m = target.floor ? floorMedian : medianRow(runs.get(target));
    if (!target.floor && misses(m, floorMedian)) failed = true;
    table.push(...(RUNS > 1 ? runs.get(target) : []), m);
  }
} finally {
  await chrome.kill();
  await stop(site.edge);
  await stop(floor.edge);
}

const out = [
  `# make lighthouse: ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`,
  "",
  `Lighthouse (mobile, simulated throttling, and the same throttling applied), ${RUNS} run(s) per page, ${os.cpus().length} CPUs. Goal (median): Performance ≥ ${GOAL.performance}, others 100 (SEO of a page the route table marks noindex: every SEO audit but is-crawlable, which must fail there), FCP ≤ 1.2 s, LCP ≤ 1.5 s, TBT ≤ 50 ms, CLS 0; against the floor's median of the same run: TBT (applied) ≤ 1.0×, script evaluation ≤ 1.5×, no task over 50 ms after FCP (applied), Performance ≥ the floor's.`,
  "TBT: simulated (Lighthouse's default), TBT applied: the same throttling applied in the browser (the floor goal's measure, see the script's header). Script: Lighthouse's script evaluation (main-thread breakdown, simulated); ÷ floor: the median against the floor's median; Long: tasks over 50 ms starting after FCP (applied), Longest: the longest of them.",
  "JS/CSS/HTML: bytes transferred (compressed) on the first load; All: every byte of the first visit (pictures, icons, data requests too), Requests: how many. Load: the machine's 1-minute load average during the run (timings grow with it; bytes do not).",
  "",
  "| Page | Perf | A11y | BP | SEO | FCP s | LCP s | TBT ms | TBT applied ms | Script ms | TBT ÷ floor | TBT applied ÷ floor | Script ÷ floor | Long | Longest ms | CLS | JS KB | CSS KB | HTML KB | All KB | Requests | Load | Goal |",
  "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|",
  ...table.map((r) => line(r, floorMedian)),
  "",
].join("\n");
writeFileSync(path.join(OUT_DIR, "RESULTS.md"), out);
// The medians for make bench's side-by-side report (bench/side-by-side.mjs).
writeFileSync(
  path.join(OUT_DIR, "summary.json"),
  JSON.stringify({ measured: new Date().toISOString(), runs: RUNS, pages: table.filter((r) => r.median).map(({ median: _, ...r }) => r) }, null, 1),
);
console.log(out);
console.log(`Reports: ${path.relative(process.cwd(), OUT_DIR)}/`);
process.exit(failed ? 1 : 0);
