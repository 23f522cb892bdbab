// A share-preview link's page (/preview/{token}) is drawn by the route of the
// page it previews, so it must not hydrate: in the browser, at the preview's
// own address, React Router matched no route, its route discovery was
// refused and the error page replaced the draft (e2e/marketer.spec.ts opens
// one). Renders an article with the server build, with and without the
// edge's preview mark; skipped without `make build` (except in CI).
// @vitest-environment node
import { existsSync } from "node:fs";
import path from "node:path";
import { createRequestHandler, type ServerBuild } from "react-router";
import { describe, expect, it } from "vitest";
import { encodePageContent } from "./lib/content.server";
import { fixtureContent } from "./lib/content-fixture";
import { CONTENT_HEADER } from "./lib/http-names";

const serverBuild = path.join(import.meta.dirname, "..", "build", "server", "index.js");
const missing = !existsSync(serverBuild) && process.env.CI !== "true";
const build = missing ? null : ((await import(/* @vite-ignore */ serverBuild)) as ServerBuild);
const article = "/blog/article/festive-season-checklist";

const render = async (preview: boolean) => {
  const content = { ...fixtureContent(article), ...(preview ? { preview: { expiresAt: "2030-01-01T00:00:00Z" } } : {}) };
  const headers = { "user-agent": "Mozilla/5.0", [CONTENT_HEADER]: encodePageContent(content) };
  const res = await createRequestHandler(build!, "production")(new Request("http://127.0.0.1" + article, { headers }));
  return { status: res.status, html: await res.text() };
};

// The inert module script lib/deferred-scripts.tsx writes: its preloads and React Router's module text.
const inert = (html: string) => html.match(/<script type="text\/x-module" data-preload="([^"]*)"[^>]*>([\s\S]*?)<\/script>/);

describe.skipIf(missing)("a preview link's page", () => {
  it("carries no React Router script: the browser keeps the server's markup", async () => {
    const { status, html } = await render(true);
    expect(status).toBe(200);
    expect(html.includes("Preview: not published"), "the banner").toBe(true);
    expect(html.includes("__reactRouterContext"), "React Router's context script").toBe(false);
    const module = inert(html);
    expect(module, "the deferred module script").not.toBeNull();
    expect(module![1]).toBe("[]");
    expect(module![2]).toBe("");
    // The full stylesheet still comes after the first paint.
    expect(html).toMatch(/data-stylesheet="\/assets\/app-[^"]+\.css"/);
  });

  it("while the published article hydrates as every page does", async () => {
    const { html } = await render(false);
    expect(html.includes("__reactRouterContext"), "React Router's context script").toBe(true);
    expect(inert(html)![2]).toContain("entry.client");
  });
});
