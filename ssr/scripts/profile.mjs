// Where a page's main thread goes on a slow phone: Chromium with its CPU
// throttled 4x (DevTools' Emulation.setCPUThrottlingRate) at a phone's screen
// (412 x 823), a trace of each load from navigation until the page has
// hydrated and three quiet seconds have passed, summed by kind of work the
// way Lighthouse groups it, with the long tasks after the first contentful
// paint. Against the built edge (started here on loopback) and the bare React
// Router floor (bench/floor, make build-floor).
//
//   node scripts/profile.mjs            every page type below, 3 loads each, and the floor
//   PROFILE_RUNS=5 PROFILE_PAGES=/,/blog PROFILE_PORT=8270 node scripts/profile.mjs
//   PROFILE_SSR_DIR=<a copy of server.js + build/> profiles another build (an earlier one, say)
//
// Writes the table to ssr/profile-results/RESULTS.md (docs/performance.md
// keeps the figures of each round). Figures scale with the machine and its
// load; compare a page with the floor of the same run.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import { firstSlug } from "./first-load.mjs";
import { startEdge, stop } from "./local-edge.mjs";

const ssrDir = path.join(import.meta.dirname, "..");
const FLOOR_DIR = path.join(ssrDir, "..", "bench", "floor");
const OUT_DIR = path.join(ssrDir, "profile-results");
const PORT = Number(process.env.PROFILE_PORT ?? 8270);
const RUNS = Number(process.env.PROFILE_RUNS ?? 3);
const RATE = Number(process.env.PROFILE_CPU_RATE ?? 4);
const PAGES = (process.env.PROFILE_PAGES?.split(",") ?? ["/", "/blog", `/blog/article/${firstSlug("blog")}`, "/help", "/contact-us"]).map((p) => p.trim());

// Lighthouse's groups (lighthouse/core/lib/tracehouse/task-groups.js), by trace event name.
const GROUPS = {
  script: ["EvaluateScript", "FunctionCall", "TimerFire", "EventDispatch", "FireAnimationFrame", "FireIdleCallback", "RunMicrotasks", "V8.Execute", "v8.evaluateModule", "XHRReadyStateChange", "XHRLoad", "v8.run"],
  compile: ["v8.compile", "v8.compileModule", "V8.CompileCode", "CacheScript", "v8.produceCache", "v8.produceModuleCache", "v8.deserializeOnBackground", "CompileScript"],
  style: ["UpdateLayoutTree", "RecalculateStyles", "ScheduleStyleRecalculation", "ParseAuthorStyleSheet", "InvalidateLayout"],
  layout: ["Layout"],
  paint: ["Paint", "PrePaint", "Layerize", "UpdateLayer", "CompositeLayers", "Commit", "PaintImage", "Decode Image", "ImageDecodeTask", "RasterTask", "Rasterize"],
  html: ["ParseHTML"],
  gc: ["MinorGC", "MajorGC", "V8.GCFinalizeMC", "V8.GCScavenger", "BlinkGC.AtomicPhase", "V8.GCIncrementalMarking", "ThreadState::performIdleLazySweep", "V8.GC_MC_BACKGROUND_MARKING"],
};
const groupOf = new Map(Object.entries(GROUPS).flatMap(([group, names]) => names.map((n) => [n, group])));

/** The main thread's work in a trace: self time by group, and its tasks. */
function summarise(events) {
  const mainThreads = events.filter((e) => e.ph === "M" && e.name === "thread_name" && e.args?.name === "CrRendererMain");
  // The page's renderer: the main thread with the most complete events.
  let best = null;
  for (const t of mainThreads) {
    const n = events.filter((e) => e.pid === t.pid && e.tid === t.tid && e.ph === "X").length;
    if (!best || n > best.n) best = { pid: t.pid, tid: t.tid, n };
  }
  const own = events.filter((e) => e.pid === best.pid && e.tid === best.tid && e.ph === "X" && e.dur !== undefined).sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const fcp = events.find((e) => e.name === "firstContentfulPaint" && e.pid === best.pid)?.ts;
  const nav = events.find((e) => e.name === "navigationStart" && e.pid === best.pid && e.args?.data?.isLoadingMainFrame)?.ts ?? own[0]?.ts;
  const tasks = own.filter((e) => e.name === "RunTask");
  const self = Object.fromEntries([...Object.keys(GROUPS), "other"].map((g) => [g, 0]));
  // Self time: each event's duration less its children's, in its group; an
  // event of no group counts for its nearest grouped ancestor ("other" if none).
  const stack = [];
  for (const e of own) {
    while (stack.length && stack.at(-1).ts + stack.at(-1).dur <= e.ts) stack.pop();
    const parent = stack.at(-1);
    if (parent) parent.childDur = (parent.childDur ?? 0) + e.dur;
    e.group = groupOf.get(e.name) ?? parent?.group ?? "other";
    stack.push(e);
  }
  for (const e of own) self[e.group] += Math.max(0, e.dur - (e.childDur ?? 0));
  const after = fcp ? tasks.filter((t) => t.ts >= fcp) : tasks;
  const long = after.filter((t) => t.dur > 50_000);
  const ms = (us) => us / 1000;
  return {
    total: ms(tasks.reduce((s, t) => s + t.dur, 0)),
    ...Object.fromEntries(Object.entries(self).map(([k, v]) => [k, ms(v)])),
    fcp: fcp && nav ? ms(fcp - nav) : NaN,
    longAfterFcp: long.length,
    longest: ms(Math.max(0, ...after.map((t) => t.dur))),
    blocking: ms(after.reduce((s, t) => s + Math.max(0, t.dur - 50_000), 0)),
  };
}

/** One traced load of url: 4x slower CPU, until hydrated (or 10 s without) and 3 s quiet. */
async function traced(browser, url) {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true, serviceWorkers: "block" });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: RATE });
  const events = [];
  cdp.on("Tracing.dataCollected", ({ value }) => events.push(...value));
  const complete = new Promise((resolve) => cdp.once("Tracing.tracingComplete", resolve));
  await cdp.send("Tracing.start", {
    transferMode: "ReportEvents",
    traceConfig: { includedCategories: ["devtools.timeline", "disabled-by-default-devtools.timeline", "v8.execute", "v8", "loading", "toplevel", "blink.user_timing", "__metadata"] },
  });
  await page.goto(url, { waitUntil: "load", timeout: 120_000 });
  // Hydrated: React's props on the header's home link (the floor: on its <main>). A site's page
  // for an anonymous visitor waits for their first sign (lib/boot.ts), which no one gives here:
  // a visitor who only reads. Up to 10 s, then the quiet 3 s.
  await page
    .waitForFunction(
      () => {
        const el = document.querySelector("header a[href='/']") ?? document.querySelector("main");
        return !!el && Object.keys(el).some((key) => key.startsWith("__reactProps"));
      },
      undefined,
      { timeout: 10_000 },
    )
    .catch(() => {});
  await page.waitForTimeout(3000);
  await cdp.send("Tracing.end");
  await complete;
  await context.close();
  return summarise(events);
}

const median = (xs) => {
  const s = xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

mkdirSync(OUT_DIR, { recursive: true });
let site, floor, browser;
const targets = [];
const rows = [];
try {
  site = await startEdge(PORT, process.env.PROFILE_SSR_DIR ?? ssrDir, path.join(OUT_DIR, "site-edge.log"));
  floor = existsSync(path.join(FLOOR_DIR, "build")) ? await startEdge(PORT + 1, FLOOR_DIR, path.join(OUT_DIR, "floor-edge.log")) : null;
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
  targets.push(...PAGES.map((p) => ({ label: p, url: site.origin + p })), ...(floor ? [{ label: "floor: bare React Router", url: floor.origin + "/" }] : []));
  for (const t of targets) await fetch(t.url); // warm the page cache
  // Pages and the floor in turns, so the machine's load falls on all of them alike.
  const runs = new Map(targets.map((t) => [t.label, []]));
  for (let run = 1; run <= RUNS; run++) {
    for (const t of targets) {
      const r = await traced(browser, t.url);
      runs.get(t.label).push(r);
      console.error(`${t.label} run ${run}: main thread ${r.total.toFixed(0)} ms, script ${r.script.toFixed(0)} ms, longest after FCP ${r.longest.toFixed(0)} ms, load ${os.loadavg()[0].toFixed(1)}`);
    }
  }
  for (const t of targets) {
    const rs = runs.get(t.label);
    rows.push({ page: t.label, ...Object.fromEntries(Object.keys(rs[0]).map((k) => [k, median(rs.map((r) => r[k]))])) });
  }
} finally {
  await browser?.close();
  await stop(site?.edge);
  await stop(floor?.edge);
}

const f = (x) => (Number.isNaN(x) ? "" : Math.round(x));
const out = [
  `# Main thread, CPU ${RATE}x slower: ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`,
  "",
  `Chromium (Playwright, CDP trace), 412 x 823, CPU throttled ${RATE}x, no network throttling; medians of ${RUNS} loads from navigation to hydrated + 3 s; ${os.cpus().length} CPUs, load average ${os.loadavg()[0].toFixed(1)} at the end. Milliseconds of main-thread time (self time by kind, as Lighthouse groups it).`,
  "",
  "| Page | Main thread | Script | Parse/compile | Style | Layout | Paint | HTML parse | GC | Other | FCP | Tasks > 50 ms after FCP | Longest after FCP | Blocking after FCP |",
  "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
  ...rows.map((r) => `| ${r.page} | ${f(r.total)} | ${f(r.script)} | ${f(r.compile)} | ${f(r.style)} | ${f(r.layout)} | ${f(r.paint)} | ${f(r.html)} | ${f(r.gc)} | ${f(r.other)} | ${f(r.fcp)} | ${r.longAfterFcp} | ${f(r.longest)} | ${f(r.blocking)} |`),
  "",
].join("\n");
writeFileSync(path.join(OUT_DIR, "RESULTS.md"), out);
console.log(out);
