// Server-only: THE preview card (Open Graph / Twitter image), 1200×630 JPEG in
// the site's look (public/og-image.jpg's purple card) with a page's section,
// title and description. Text is laid out by satori with Inter from
// @fontsource/inter (a package: nothing is fetched) into an SVG of paths,
// which sharp turns into a JPEG. Two callers, one drawing:
//
// - the build (scripts/og-images.mjs, through the server build's entry)
//   draws the route table's pages and the repository's own articles;
// - the edge asks for the card of an article it publishes with a new text
//   (edge/internal/ogcard, decision 0066): cardEndpoint below answers its
//   request at CARD_PATH, and the edge keeps the JPEG in its database.
//
// Changing what the card looks like: bump shared/http.json's cardVersion too,
// so the edge draws its stored cards again rather than serve the old look.
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import type { Request, Response } from "express";
import rules from "@omnibus/shared/validation.json";
import { CARD_HEADER } from "./http-names";
import { log } from "./log.server";

export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;

/** What a card shows. The section (Blog, Help centre…) is drawn above the title when given. */
export interface CardText {
  title: string;
  section?: string;
  description?: string;
}

const require = createRequire(import.meta.url);
let fonts: Array<{ name: string; data: Buffer; weight: 400 | 800; style: "normal" }> | undefined;
const font = (weight: 400 | 800) => ({ name: "Inter", data: readFileSync(require.resolve(`@fontsource/inter/files/inter-latin-${weight}-normal.woff`)), weight, style: "normal" as const });

/** A satori element: {type, props: {style, children}}. */
type Node = { type: string; props: { style: Record<string, unknown>; children: unknown } };
const h = (type: string, style: Record<string, unknown>, ...children: unknown[]): Node => ({ type, props: { style, children: children.length === 1 ? children[0] : children } });

/** At most max characters, cut at a word, with an ellipsis. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.lastIndexOf(" ", max);
  return text.slice(0, cut > 0 ? cut : max).replace(/[,;:.\s—-]+$/, "") + "…";
}

function card(page: CardText): Node {
  const title = clip(page.title, 110);
  const size = title.length <= 40 ? 76 : title.length <= 70 ? 64 : 54;
  return h(
    "div",
    {
      width: CARD_WIDTH,
      height: CARD_HEIGHT,
      boxSizing: "border-box",
      display: "flex",
      flexDirection: "column",
      justifyContent: "space-between",
      padding: "72px 88px",
      color: "#ffffff",
      fontFamily: "Inter",
      backgroundColor: "#5519d6",
      backgroundImage: "radial-gradient(circle at 88% 12%, #14b8a6 0%, rgba(20,184,166,0) 38%), linear-gradient(135deg, #230a61 0%, #5519d6 55%, #7447fa 100%)",
    },
    h(
      "div",
      { display: "flex", alignItems: "center", gap: 22, fontSize: 44, fontWeight: 800, letterSpacing: -1 },
      h(
        "div",
        { width: 72, height: 72, borderRadius: 20, backgroundColor: "rgba(255,255,255,0.14)", display: "flex", alignItems: "center", justifyContent: "center" },
        h("div", { width: 46, height: 46, borderRadius: 23, border: "8px solid #ffffff", display: "flex", alignItems: "center", justifyContent: "center" }, h("div", { width: 12, height: 12, borderRadius: 6, backgroundColor: "#ffffff" })),
      ),
      "Omnibus",
    ),
    h(
      "div",
      { display: "flex", flexDirection: "column" },
      page.section ? h("div", { display: "flex", fontSize: 28, fontWeight: 800, color: "#99f6e4", letterSpacing: 2, textTransform: "uppercase", marginBottom: 20 }, page.section) : h("div", { display: "flex" }),
      h("div", { display: "flex", fontSize: size, fontWeight: 800, lineHeight: 1.08, letterSpacing: -2, maxWidth: 1000 }, title),
      h("div", { display: "flex", fontSize: 28, fontWeight: 400, lineHeight: 1.35, opacity: 0.85, marginTop: 24, maxWidth: 980 }, clip(page.description ?? "", 130)),
    ),
  );
}

/** The card as JPEG bytes. satori and sharp load on the first drawing, not with every renderer. */
export async function drawCard(page: CardText): Promise<Buffer> {
  const [{ default: satori }, { default: sharp }] = await Promise.all([import("satori"), import("sharp")]);
  fonts ??= [font(400), font(800)];
  // satori's element type is React's; the plain objects above are what it reads.
  const svg = await satori(card(page) as unknown as Parameters<typeof satori>[0], { width: CARD_WIDTH, height: CARD_HEIGHT, fonts });
  return sharp(Buffer.from(svg)).jpeg({ quality: 86, mozjpeg: true }).toBuffer();
}

/** Where the edge asks for a card (never proxied for a visitor: see cardEndpoint). */
export const CARD_PATH = "/__renderer/og-card";

/**
 * The most a card's words may be: a published article's title and
 * description (shared/validation.json's contentTitle, contentDescription)
 * and a short section name. The header is refused past MAX_CARD_HEADER
 * before it is decoded.
 */
export const CARD_LIMITS = { title: rules.fields.contentTitle.maxLength, description: rules.fields.contentDescription.maxLength, section: 40 };
export const MAX_CARD_HEADER = 8 << 10;

/** The card text of the header's value (base64url JSON), or why it is refused. */
function cardText(raw: string | undefined): CardText | string {
  if (!raw) return `${CARD_HEADER} is required`;
  if (raw.length > MAX_CARD_HEADER) return `${CARD_HEADER} is longer than ${MAX_CARD_HEADER} bytes`;
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(raw, "base64url").toString("utf8"));
  } catch {
    return `${CARD_HEADER} is not base64url JSON`;
  }
  const o = (v && typeof v === "object" ? v : {}) as Record<string, unknown>;
  const { title, section = "", description = "" } = o;
  if (typeof title !== "string" || title.trim() === "") return "title is required";
  if (typeof section !== "string" || typeof description !== "string") return "section and description are text";
  for (const [name, value] of Object.entries({ title, section, description })) {
    const max = CARD_LIMITS[name as keyof typeof CARD_LIMITS];
    if ([...value].length > max) return `${name} is longer than ${max} characters`;
  }
  return { title, section, description };
}

/** Drawings in progress or waiting on this renderer: one draws at a time (CPU), a few wait, more are refused. */
const MAX_WAITING = 4;
let queue: Promise<unknown> = Promise.resolve();
let pending = 0;

/**
 * GET CARD_PATH with the card's text in shared/http.json's cardHeader
 * (base64url JSON {title, section, description}): the card as image/jpeg.
 * Only the edge's own request is answered: a request the edge proxied for
 * a visitor always carries X-Forwarded-For (and the edge strips a
 * visitor's X-Omnibus-* headers), so such a request is answered 404, as
 * the health endpoint does. Too long a text is 422; a busy renderer 503.
 */
export async function cardEndpoint(req: Request, res: Response) {
  res.set("Cache-Control", "no-store");
  if (req.get("x-forwarded-for")) return res.status(404).end();
  if (req.method !== "GET") return res.status(405).set("Allow", "GET").json({ errorDetail: "Use GET" });
  const text = cardText(req.get(CARD_HEADER));
  if (typeof text === "string") return res.status(422).json({ errorDetail: text });
  if (pending > MAX_WAITING) return res.status(503).set("Retry-After", "2").json({ errorDetail: "Busy drawing other cards" });
  pending++;
  const drawn = queue.then(() => drawCard(text));
  queue = drawn.catch(() => undefined);
  try {
    const jpeg = await drawn;
    res.status(200).type("image/jpeg").send(jpeg);
  } catch (err) {
    log.error({ err }, "og-card: drawing failed");
    res.status(500).json({ errorDetail: "The card could not be drawn" });
  } finally {
    pending--;
  }
}
