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
// Exits 1 when a page's median misses the performance goal: Performance ≥ 99,
// the other three categories 100, FCP ≤ 1.2 s, LCP ≤ 1.5 s, TBT ≤ 50 ms, CLS 0.
//
// Knobs: LIGHTHOUSE_RUNS (default 3), LIGHTHOUSE_PORT (default 8097; the floor
// uses the next port), LIGHTHOUSE_PAGES (comma-separated paths, default all).
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, openSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { firstSlug } from "./first-load.mjs";

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

// The goals, from the one budget file (ssr/perf-budget.json).
const goals = JSON.parse(readFileSync(path.join(ssrDir, "perf-budget.json"), "utf8")).lighthouse;
const GOAL = { ...goals, fcp: goals.fcpMs, lcp: goals.lcpMs, tbt: goals.tbtMs };

async function waitFor(url, ms) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer within ${ms / 1000}s`);
}

/** The edge on loopback with a renderer child (SSR_DIR) and a throw-away SQLite. */
async function startEdge(port, ssrAppDir, name) {
  const origin = `http://127.0.0.1:${port}`;
  if (await fetch(`${origin}/healthz`).then(() => true, () => false)) throw new Error(`${origin} already answers: set LIGHTHOUSE_PORT`);
  const edge = spawn(path.join(rootDir, "edge", "bin", "edge"), [], {
    cwd: path.join(rootDir, "edge"),
    env: {
      ...process.env,
      OMNIBUS_ENV: "development",
      LISTEN_ADDR: `127.0.0.1:${port}`,
      RENDERER_PORT: String(port - 5000),
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "omnibus-lighthouse-")),
      SSR_DIR: ssrAppDir,
      // Canonical links must name the audited origin.
      PUBLIC_URL: origin,
      DATABASE_URL: "",
    },
    // Its access log would drown the table: keep it beside the reports.
    stdio: ["ignore", "ignore", openSync(path.join(OUT_DIR, `${name}-edge.log`), "w")],
  });
  await waitFor(`${origin}/healthz`, 60_000);
  await waitFor(`${origin}/readyz`, 60_000);
  return { edge, origin };
}

async function stop(edge) {
  if (!edge || edge.exitCode !== null) return;
  edge.kill("SIGTERM");
  await new Promise((r) => edge.once("exit", r));
}

const load = () => os.loadavg()[0];

/** One Lighthouse run: the figures of the table. */
async function audit(url, chromePort, label, run) {
  const loadBefore = load();
  const { lhr } = await lighthouse(url, { port: chromePort, output: "json", logLevel: "error" });
  // A run Lighthouse itself could not record (NO_NAVSTART, say, on a busy
  // machine) has no figures: the caller runs it again.
  if (lhr.runtimeError) throw new Error(`Lighthouse could not measure ${url}: ${lhr.runtimeError.code}`);
  writeFileSync(path.join(OUT_DIR, `${label.replace(/[^a-z0-9]+/gi, "_")}-${run}.json`), JSON.stringify(lhr));
  const score = (id) => Math.round((lhr.categories[id].score ?? 0) * 100);
  const num = (id) => lhr.audits[id].numericValue;
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
    seo: score("seo"),
    fcp: num("first-contentful-paint"),
    lcp: num("largest-contentful-paint"),
    tbt: num("total-blocking-time"),
    cls: num("cumulative-layout-shift"),
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

/** Which goals a median row misses ("" when none). */
function misses(m) {
  const out = [];
  for (const id of ["performance", "accessibility", "best-practices", "seo"]) if (m[id] < GOAL[id]) out.push(id);
  if (m.fcp > GOAL.fcp) out.push("FCP");
  if (m.lcp > GOAL.lcp) out.push("LCP");
  if (m.tbt > GOAL.tbt) out.push("TBT");
  if (m.cls > GOAL.cls) out.push("CLS");
  return out.join(", ");
}

const kb = (b) => (b / 1024).toFixed(1);
const s = (ms) => (ms / 1000).toFixed(2);
function line(r) {
  const name = r.median && RUNS > 1 ? `**${r.page} (median)**` : r.page;
  const verdict = r.median ? (r.floor ? "floor" : misses(r) ? `✗ ${misses(r)}` : "✓") : "";
  return `| ${name} | ${r.performance} | ${r.accessibility} | ${r["best-practices"]} | ${r.seo} | ${s(r.fcp)} | ${s(r.lcp)} | ${Math.round(r.tbt)} | ${r.cls.toFixed(3)} | ${kb(r.js)} | ${kb(r.css)} | ${kb(r.html)} | ${kb(r.total)} | ${r.requests} | ${r.load.toFixed(1)} | ${verdict} |`;
}

mkdirSync(OUT_DIR, { recursive: true });
const site = await startEdge(PORT, ssrDir, "site");
const floor = await startEdge(PORT + 1, FLOOR_DIR, "floor").catch(async (error) => {
  await stop(site.edge);
  throw error;
});
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, async () => {
    await Promise.all([stop(site.edge), stop(floor.edge)]);
    process.exit(130);
  });
}
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
});
const table = [];
let failed = false;
try {
  const targets = [...PAGES.map((p) => ({ url: site.origin + p, label: p })), { url: floor.origin + "/", label: "floor: bare React Router", floor: true }];
  for (const target of targets) {
    await fetch(target.url); // the page cache is warm, as for a real visitor after the first
    const rows = [];
    for (let run = 1; run <= RUNS; run++) {
      let row;
      for (let attempt = 1; !row; attempt++) {
        row = await audit(target.url, chrome.port, target.label, run).catch((error) => {
          if (attempt === 3) throw error;
          console.error(`${target.label} run ${run}: ${error.message}; again`);
        });
      }
      rows.push(row);
      console.error(`${target.label} run ${run}: performance ${row.performance}, LCP ${s(row.lcp)} s, load ${row.load.toFixed(1)}`);
    }
    const m = { ...medianRow(rows), floor: Boolean(target.floor) };
    if (!target.floor && misses(m)) failed = true;
    table.push(...(RUNS > 1 ? rows : []), m);
  }
} finally {
  await chrome.kill();
  await stop(site.edge);
  await stop(floor.edge);
}

const out = [
  `# make lighthouse: ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`,
  "",
  `Lighthouse (mobile, simulated throttling), ${RUNS} run(s) per page, ${os.cpus().length} CPUs. Goal (median): Performance ≥ ${GOAL.performance}, others 100, FCP ≤ 1.2 s, LCP ≤ 1.5 s, TBT ≤ 50 ms, CLS 0.`,
  "JS/CSS/HTML: bytes transferred (compressed) on the first load; All: every byte of the first visit (pictures, icons, data requests too), Requests: how many. Load: the machine's 1-minute load average during the run (timings grow with it; bytes do not).",
  "",
  "| Page | Perf | A11y | BP | SEO | FCP s | LCP s | TBT ms | CLS | JS KB | CSS KB | HTML KB | All KB | Requests | Load | Goal |",
  "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|",
  ...table.map(line),
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
