// @vitest-environment node
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import express from "express";
import { imageSize } from "image-size";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CARD_HEADER } from "./http-names";
import { CARD_LIMITS, MAX_CARD_HEADER } from "./og-card.server";
import { CARD_PATH, cardEndpoint } from "./renderer-server.server";
import { pageSeo, seoPage } from "./seo.server";
import { renderToStaticMarkup } from "react-dom/server";

// The card endpoint as ssr/server.js mounts it, on a real listener.
let server: Server;
let base: string;
beforeAll(async () => {
  const app = express();
  app.all(CARD_PATH, cardEndpoint);
  server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const header = (text: unknown) => Buffer.from(JSON.stringify(text), "utf8").toString("base64url");
const ask = (headers: Record<string, string>, method = "GET") => fetch(base + CARD_PATH, { method, headers });

describe("the preview card the edge asks the renderer to draw", () => {
  it("draws the words it is sent as a 1200×630 JPEG: the edge keeps it for the article's new title", async () => {
    const res = await ask({ [CARD_HEADER]: header({ title: "A retitled article", section: "Blog", description: "What it says now." }) });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/jpeg");
    const size = imageSize(new Uint8Array(await res.arrayBuffer()));
    expect(size).toMatchObject({ type: "jpg", width: 1200, height: 630 });
  });

  it("answers nothing the edge proxied for a visitor (it always adds X-Forwarded-For), so no visitor has text drawn", async () => {
    const res = await ask({ [CARD_HEADER]: header({ title: "Anything a visitor types" }), "X-Forwarded-For": "203.0.113.9" });
    expect(res.status).toBe(404);
  });

  it("refuses another method: the edge only ever asks with GET", async () => {
    const res = await ask({ [CARD_HEADER]: header({ title: "Posted" }) }, "POST");
    expect(res.status).toBe(405);
  });

  it("refuses words longer than a published article's (the drawing's CPU is bounded by them)", async () => {
    const long = "word ".repeat(CARD_LIMITS.title / 5 + 1);
    for (const text of [{ title: long }, { title: "t", description: "d".repeat(CARD_LIMITS.description + 1) }, { title: "t", section: "s".repeat(CARD_LIMITS.section + 1) }]) {
      const res = await ask({ [CARD_HEADER]: header(text) });
      expect(res.status).toBe(422);
      expect(await res.json()).toHaveProperty("errorDetail");
    }
  });

  it("refuses a header past its cap before decoding it, and one without a title", async () => {
    expect((await ask({ [CARD_HEADER]: "a".repeat(MAX_CARD_HEADER + 1) })).status).toBe(422);
    expect((await ask({ [CARD_HEADER]: header({ section: "Blog" }) })).status).toBe(422);
    expect((await ask({})).status).toBe(422);
  });
});

describe("the article page's preview image", () => {
  it("names the card the edge drew for the live words, with its size and alt", () => {
    const content = {
      article: { slug: "retitled", title: "A new title", description: "d", date: "2026-11-27", category: "Growth", html: "" },
      card: "/media/og/0123456789abcdef0123456789abcdef.jpg",
    };
    const page = seoPage("/blog/article/retitled", content);
    expect(page).toBeDefined();
    const html = renderToStaticMarkup(pageSeo(page!, "https://omnibus.example").head);
    expect(html).toContain('property="og:image" content="https://omnibus.example/media/og/0123456789abcdef0123456789abcdef.jpg"');
    expect(html).toContain('name="twitter:image" content="https://omnibus.example/media/og/0123456789abcdef0123456789abcdef.jpg"');
    expect(html).toContain('property="og:image:width" content="1200"');
    expect(html).toContain('property="og:image:height" content="630"');
    expect(html).toContain('property="og:image:alt" content="Blog: A new title"');
  });
});
