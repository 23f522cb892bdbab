// The document of / paints from its own bytes (docs/decisions/0013-critical-css.md):
// its <head> carries the first view's CSS inline, the parser meets no
// stylesheet, preload or script to fetch (docs/decisions/0016-scripts-after-first-paint.md),
// and the head and everything up to the end of the hero fit
// the budgets of perf-budget.json (brotli). Sizes only. Renders / with the
// server build as the page cache asks for it; skipped without `make build`
// (except in CI). Then, for every page type of make lighthouse, that its
// whole document needs no class only the full stylesheet has.
// @vitest-environment node
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync } from "node:zlib";
import { JSDOM } from "jsdom";
import postcss from "postcss";
import { createRequestHandler, type ServerBuild } from "react-router";
import { describe, expect, it } from "vitest";
import { budget, firstSlug } from "../scripts/first-load.mjs";
import { encodePageContent } from "./lib/content.server";
import { fixtureContent, fixturePaths } from "./lib/content-fixture";
import { CONTENT_HEADER } from "./lib/http-names";

const serverBuild = path.join(import.meta.dirname, "..", "build", "server", "index.js");
const missing = !existsSync(serverBuild) && process.env.CI !== "true";
const br = (text: string) => brotliCompressSync(text).length;
const build = missing ? null : ((await import(/* @vite-ignore */ serverBuild)) as ServerBuild);
// The document the page cache stores for path, with the content the edge
// attaches to a content page's request (its articles live in the edge's store).
const render = async (path: string) => {
  const headers: Record<string, string> = { "x-render-mode": "complete", "user-agent": "Mozilla/5.0" };
  if (fixturePaths().includes(path)) headers[CONTENT_HEADER] = encodePageContent(fixtureContent(path));
  return (await (await createRequestHandler(build!, "production")(new Request("http://127.0.0.1" + path, { headers }))).text());
};

describe.skipIf(missing)("the document of / (perf-budget.json document.home)", async () => {
  const limits = budget.document.home as { headBrotliBytes: number; firstFlightBrotliBytes: number };
  const html = build ? await render("/") : "";
  const headEnd = html.indexOf("</head>");
  const h1 = html.indexOf("<h1");
  const heroEnd = html.indexOf("</section>", h1);

  it("carries the first view's CSS in a <style> in its head", () => {
    const style = html.slice(0, headEnd).match(/<style\b[^>]*>([\s\S]*?)<\/style>/);
    expect(style, "an inline <style> in <head>").not.toBeNull();
    // The navigation bar and the hero's layout and colours, both themes.
    for (const rule of [".sticky", ".max-w-7xl", ".text-balance", ".dark\\:bg-gray-950", "@media"]) expect(style![1], rule).toContain(rule);
  });

  it("gives the parser no script or stylesheet to fetch: they wait for the first paint", () => {
    expect(h1).toBeGreaterThan(headEnd);
    const parsed = html.replace(/<noscript>[\s\S]*?<\/noscript>/g, "");
    expect(parsed).not.toMatch(/<link[^>]+rel="(stylesheet|modulepreload)"/);
    expect(parsed).not.toMatch(/<link[^>]+rel="preload"[^>]+as="(script|style|fetch|font)"/);
    expect(parsed).not.toMatch(/<script[^>]+(src=|type="module")/);
    // They are listed for lib/deferred-scripts.tsx's loader: React Router's entry, / and its chunks, the stylesheet.
    const inert = html.match(/<script type="text\/x-module" data-preload="([^"]*)" data-stylesheet="([^"]*)" data-start="sign">/);
    expect(inert, "the deferred module script").not.toBeNull();
    const preload = JSON.parse(inert![1].replaceAll("&quot;", '"')) as string[];
    expect(preload.some((href) => /\/assets\/entry\.client-[^/]+\.js$/.test(href))).toBe(true);
    expect(preload.some((href) => /\/assets\/home-[^/]+\.js$/.test(href))).toBe(true);
    expect(inert![2]).toMatch(/^\/assets\/app-[^"]+\.css$/);
    // Without JavaScript the whole stylesheet still applies.
    expect(html.slice(heroEnd)).toMatch(/<noscript><link rel="stylesheet" href="\/assets\/app-[^"]+\.css"\/><\/noscript>/);
  });

  it(`keeps its head within ${limits.headBrotliBytes} bytes brotli`, () => {
    expect(br(html.slice(0, headEnd))).toBeLessThanOrEqual(limits.headBrotliBytes);
  });

  it(`carries the hero within its first ${limits.firstFlightBrotliBytes} bytes brotli`, () => {
    expect(heroEnd).toBeGreaterThan(h1);
    expect(br(html.slice(0, heroEnd))).toBeLessThanOrEqual(limits.firstFlightBrotliBytes);
  });

  // An SVG picture (an <img> or a CSS url(), a mask say) is a document of its
  // own that Chromium builds and lays out on the page's main thread: the
  // twelve of / (customer logos with text, social icons, the brand mark)
  // took 130-160 ms at first load, and an SVG tab icon 9-14 ms. Pictures are
  // WebP, the tab icon PNG (scripts/images/make.mjs).
  it("draws no picture from an SVG file", () => {
    const pictures = [...html.matchAll(/<img\b[^>]*?\bsrc="([^"]+)"|url\(([^)]+)\)|<link rel="icon" href="([^"]+)"/g)].map((m) => m[1] ?? m[2] ?? m[3]);
    // The header's brand mark and the tab icon are one file: the pattern finds both uses.
    expect(pictures.filter((src) => src === "/favicon.webp").length, "the brand mark and the tab icon").toBeGreaterThanOrEqual(2);
    expect(pictures, "one favicon: no PNG beside the WebP").not.toContain("/favicon.png");
    expect(pictures.filter((src) => /\.svg\b/.test(src))).toEqual([]);
  });
});

// Every page type of make lighthouse is drawn from the inline CSS alone, the
// whole document and not only its first screen: an anonymous visitor's page
// links the full stylesheet only at their first sign (lib/boot.ts), so a
// class only the full stylesheet defines leaves its element unstyled until
// then (Lighthouse saw the landing page's sections below the hero with their
// text colours missing), and a class of the first screen would shift it when
// the stylesheet comes (Lighthouse saw 0.03 on a blog article, whose Markdown
// typography was missing).
describe.skipIf(missing)("the whole document of each page type", async () => {
  const assets = path.join(import.meta.dirname, "..", "build", "client", "assets");
  const fullCSS = missing ? "" : readFileSync(path.join(assets, readdirSync(assets).find((f) => /^app-.*\.css$/.test(f))!), "utf8");
  // Class names a stylesheet has rules for (CSS escapes undone).
  const classesOf = (css: string) => new Set([...css.matchAll(/\.((?:\\.|[\w-])+)/g)].map((m) => m[1].replace(/\\(.)/g, "$1")));
  const full = classesOf(fullCSS);
  // The full stylesheet's selectors, by the classes they name.
  const selectorsByClass = new Map<string, string[]>();
  if (!missing)
    postcss.parse(fullCSS).walkRules((rule) => {
      for (const selector of rule.selectors) for (const c of classesOf(selector)) selectorsByClass.set(c, [...(selectorsByClass.get(c) ?? []), selector]);
    });
  // The inline CSS holds the rules of the page's own markup only (lib/critical-css.server.ts):
  // a class the page uses whose rules select nothing in it (`[&_.table-scroll]:mt-6` on a page
  // without a table) needs no rule. Matched by jsdom, states (hover, focus...) and pseudo-elements set aside.
  const STATES = /::?(?:hover|focus-visible|focus-within|focus|active|visited|before|after|placeholder|backdrop|marker|selection|file-selector-button|-webkit-[\w-]+|-moz-[\w-]+)\b/g;
  const selectsSomething = (document: Document, c: string) =>
    (selectorsByClass.get(c) ?? []).some((selector) => {
      try {
        return document.querySelector(selector.replace(STATES, "")) !== null;
      } catch {
        return true; // a selector jsdom cannot read: counted as needed
      }
    });
  /** Classes of the markup (from the <body> on) whose full-stylesheet rules select an element of it, but the inline CSS lacks. */
  const lateClasses = (html: string, from: string) => {
    const inline = classesOf(html.match(/<style\b[^>]*>([\s\S]*?)<\/style>/)![1]);
    const used = new Set([...from.replaceAll("&amp;", "&").matchAll(/\bclass="([^"]*)"/g)].flatMap((m) => m[1].split(/\s+/)).filter(Boolean));
    const document = new JSDOM(html).window.document;
    return [...used].filter((c) => full.has(c) && !inline.has(c) && selectsSomething(document, c));
  };
  // make lighthouse's pages (an article stands for its page type), and the other kinds of page an anonymous visitor meets.
  const pages = [
    ...Object.keys(budget.pages as Record<string, string>).map((pattern) => pattern.replace(":slug", firstSlug(pattern.startsWith("/blog") ? "blog" : "help"))),
    ...["/about", "/terms-of-use", "/search", "/register", "/forgot-password", "/partner-with-us", "/petpawlor", "/old-pricing", "/career", "/no-such-page"],
  ];

  it.each(missing ? [] : pages)("%s", async (page) => {
    const html = await render(page);
    expect(html, "rendered").toContain("<main");
    expect(lateClasses(html, html.slice(html.indexOf("<body"))), "classes of the page only the full stylesheet defines").toEqual([]);
  });

  // The component catalogue's index (/blocks shifted by 0.301
  // when its cards' 10rem preview boxes got their height from the full
  // stylesheet): what lays it out is inline too, its thumbnails included
  // (pictures in boxes of their ratio).
  it.skipIf(missing)("/blocks lays out from the inline CSS", async () => {
    const page = "/blocks";
    const html = await render(page);
    const main = html.indexOf("<main");
    expect(lateClasses(html, html.slice(html.indexOf("<body"), html.indexOf("</main>", main))), "classes only the full stylesheet defines").toEqual([]);
  });

  // Chromium draws an undrawn box (data-island: content-visibility auto,
  // theme.css) that holds a form field wherever the box is, in the first frame
  // that meets it: a footer box around the newsletter form was styled and laid
  // out on every load, 134 elements after the first paint, even at the end of
  // a long page. Such a part is drawn with the page (island's `drawn`).
  it.each(missing ? [] : pages)("%s: no undrawn box holds a form field, which would have it drawn anyway", async (page) => {
    const { document } = new JSDOM(await render(page)).window;
    const fields = [...document.querySelectorAll("[data-island] :is(input, select, textarea)")].map((el) => `${el.closest("[data-island]")!.getAttribute("data-island")}: ${el.outerHTML.slice(0, 80)}`);
    expect(fields).toEqual([]);
  });

  // The first paint waits for the element that ends the navigation bar (root.tsx's
  // rel=expect): a page without it would paint only once its whole document is in.
  it.each(missing ? [] : pages)("%s: the element the first paint waits for is there once, before the page", async (page) => {
    const html = await render(page);
    const target = html.match(/<link\b[^>]*\brel="expect"[^>]*\bhref="#([\w-]+)"[^>]*\bblocking="render"/)?.[1];
    expect(target, "a render-blocking rel=expect link").toBeTruthy();
    const at = [...html.matchAll(new RegExp(`\\sid="${target}"`, "g"))].map((m) => m.index);
    expect(at, `elements #${target}`).toHaveLength(1);
    expect(at[0]).toBeLessThan(html.indexOf("<main"));
  });
});
