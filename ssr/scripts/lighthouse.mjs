// `make lighthouse`: Lighthouse (default mobile emulation and simulated
// throttling) on the landing page in Debian's Chromium, against the built
// edge and renderer started here on loopback (or LIGHTHOUSE_URL if given).
// Prints the four category scores with LCP, CLS and TBT, writes the full
// report to ssr/test-results/lighthouse/, and exits 1 when a target is missed:
// Performance ≥ 95, Accessibility 100, Best Practices 100, SEO 100, CLS 0.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, openSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";

const ssrDir = path.join(import.meta.dirname, "..");
const PORT = Number(process.env.LIGHTHOUSE_PORT ?? 8097);
const ORIGIN = `http://127.0.0.1:${PORT}`;
const PAGE = process.env.LIGHTHOUSE_URL ?? `${ORIGIN}/`;
const OUT_DIR = path.join(ssrDir, "test-results", "lighthouse");
const TARGETS = { performance: 95, accessibility: 100, "best-practices": 100, seo: 100 };

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

/** The edge on loopback with its renderer child and a throw-away SQLite. */
async function startEdge() {
  const edge = spawn(path.join(ssrDir, "..", "edge", "bin", "edge"), [], {
    cwd: path.join(ssrDir, "..", "edge"),
    env: {
      ...process.env,
      LISTEN_ADDR: `127.0.0.1:${PORT}`,
      RENDERER_PORT: String(PORT - 5000),
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "omnibus-lighthouse-")),
      SSR_DIR: ssrDir,
      // Canonical links must name the audited origin.
      PUBLIC_URL: ORIGIN,
      DATABASE_URL: "",
    },
    // Its access log would drown the scores: keep it beside the report.
    stdio: ["ignore", "ignore", openSync(path.join(OUT_DIR, "edge.log"), "w")],
  });
  await waitFor(`${ORIGIN}/healthz`, 60_000);
  await waitFor(`${ORIGIN}/`, 60_000); // the renderer is ready, the page cache warm
  return edge;
}

mkdirSync(OUT_DIR, { recursive: true });
const edge = process.env.LIGHTHOUSE_URL ? null : await startEdge();
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
});
let failed = false;
try {
  const result = await lighthouse(PAGE, { port: chrome.port, output: "html", logLevel: "error" });
  const { lhr, report } = result;
  const outDir = OUT_DIR;
  writeFileSync(path.join(outDir, "report.html"), report);
  writeFileSync(path.join(outDir, "report.json"), JSON.stringify(lhr, null, 1));

  console.log(`Lighthouse ${lhr.lighthouseVersion} on ${lhr.finalDisplayedUrl} (${lhr.configSettings.formFactor}, ${lhr.configSettings.throttlingMethod} throttling)`);
  for (const [id, target] of Object.entries(TARGETS)) {
    const category = lhr.categories[id];
    const score = Math.round((category.score ?? 0) * 100);
    const ok = score >= target;
    failed ||= !ok;
    console.log(`  ${ok ? "✓" : "✗"} ${category.title.padEnd(15)} ${String(score).padStart(3)}  (target ${target})`);
  }
  const audit = (id) => lhr.audits[id];
  const cls = audit("cumulative-layout-shift").numericValue;
  failed ||= cls !== 0;
  console.log(`  LCP ${audit("largest-contentful-paint").displayValue} · CLS ${cls === 0 ? "0" : cls.toFixed(3)}${cls === 0 ? "" : " ✗ (target 0)"} · TBT ${audit("total-blocking-time").displayValue}`);
  for (const [id, category] of Object.entries(lhr.categories)) {
    if (id === "performance" || (category.score ?? 0) === 1) continue;
    for (const ref of category.auditRefs) {
      const a = lhr.audits[ref.id];
      if (ref.weight > 0 && a.score !== null && a.score < 1) console.log(`    ${id}: ${a.id} — ${a.title}`);
    }
  }
  console.log(`  Report: ${path.relative(process.cwd(), path.join(outDir, "report.html"))}`);
} finally {
  await chrome.kill();
  if (edge) {
    edge.kill("SIGTERM");
    await new Promise((r) => edge.once("exit", r));
  }
}
process.exit(failed ? 1 : 0);
