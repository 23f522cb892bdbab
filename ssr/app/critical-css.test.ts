// The document of / paints from its own bytes (issue 14, docs/decisions/0014-critical-css.md):
// its <head> carries the first view's CSS inline, no stylesheet link comes
// before the hero, and the head and everything up to the end of the hero fit
// the budgets of perf-budget.json (brotli). Sizes only. Renders / with the
// server build as the page cache asks for it; skipped without `make build`
// (except in CI).
// @vitest-environment node
import { existsSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync } from "node:zlib";
import { createRequestHandler, type ServerBuild } from "react-router";
import { describe, expect, it } from "vitest";
import { budget } from "../scripts/first-load.mjs";

const serverBuild = path.join(import.meta.dirname, "..", "build", "server", "index.js");
const missing = !existsSync(serverBuild) && process.env.CI !== "true";
const br = (text: string) => brotliCompressSync(text).length;

describe.skipIf(missing)("the document of / (perf-budget.json document.home)", async () => {
  const limits = budget.document.home as { headBrotliBytes: number; firstFlightBrotliBytes: number };
  const build = missing ? null : ((await import(/* @vite-ignore */ serverBuild)) as ServerBuild);
  const html = build
    ? await (await createRequestHandler(build, "production")(new Request("http://127.0.0.1/", { headers: { "x-render-mode": "complete", "user-agent": "Mozilla/5.0" } }))).text()
    : "";
  const headEnd = html.indexOf("</head>");
  const h1 = html.indexOf("<h1");
  const heroEnd = html.indexOf("</section>", h1);

  it("carries the first view's CSS in a <style> in its head", () => {
    const style = html.slice(0, headEnd).match(/<style\b[^>]*>([\s\S]*?)<\/style>/);
    expect(style, "an inline <style> in <head>").not.toBeNull();
    // The navigation bar and the hero's layout and colours, both themes.
    for (const rule of [".sticky", ".max-w-7xl", ".text-balance", ".dark\\:bg-gray-950", "@media"]) expect(style![1], rule).toContain(rule);
  });

  it("has no stylesheet link before the hero: nothing but the document stands before the first paint", () => {
    expect(h1).toBeGreaterThan(headEnd);
    expect(html.slice(0, heroEnd)).not.toMatch(/<link[^>]+rel="stylesheet"/);
    // The whole stylesheet still comes, after the content (and without JavaScript).
    expect(html.slice(heroEnd)).toMatch(/<link rel="stylesheet" href="\/assets\/app-[^"]+\.css"\/>/);
  });

  it(`keeps its head within ${limits.headBrotliBytes} bytes brotli`, () => {
    expect(br(html.slice(0, headEnd))).toBeLessThanOrEqual(limits.headBrotliBytes);
  });

  it(`carries the hero within its first ${limits.firstFlightBrotliBytes} bytes brotli`, () => {
    expect(heroEnd).toBeGreaterThan(h1);
    expect(br(html.slice(0, heroEnd))).toBeLessThanOrEqual(limits.firstFlightBrotliBytes);
  });
});
