// The first view's CSS, cut to the document that carries it
// (docs/decisions/0070-inline-css-cut-to-the-page.md). app/critical.css
// holds every rule any page type needs (70 KB); a page uses a quarter of it.
// Every byte of it is downloaded before the page paints and parsed and matched
// on a phone's main thread, so the renderer keeps, for each complete document,
// only the rules whose classes that document uses.
//
// How: the CSS is read once (postcss) into its rules, each with the classes
// its selector needs; the answer's first write (React writes a whole document,
// or a streamed page's shell, in one go) is scanned for class attributes, and
// the <style data-critical> keeps the rules those classes meet. Written here
// rather than with a critical-CSS library (Beasties, say): those build a DOM
// of the document and match every selector against it, on each render; this
// is one regular expression over the document and a set lookup per rule.
//
// A rule is kept when one of its selectors' classes outside parentheses are
// all in the document. Classes inside :is(), :where(), :not() or :has() are
// not required (kept rather than guessed), and the classes the theme script
// sets on <html> before hydration (dark, light, theme-switching) count as
// present. At-rules wrap what they keep and vanish when empty; @property,
// @keyframes, @font-face and statements (@layer a, b;) stay as they are.
//
// A streamed shell with a Suspense boundary still pending (React's <!--$?-->)
// keeps the whole CSS: what streams later is not known yet. The page cache's
// documents and crawlers' are complete, so theirs are always cut.
import { Transform, type TransformCallback } from "node:stream";
import postcss, { type AtRule, type ChildNode } from "postcss";
import { THEME_SWITCHING_CLASS } from "./theme";

/** Classes the theme script sets on <html> before hydration: never in the server's markup. */
const SET_BY_SCRIPT = new Set(["dark", "light", THEME_SWITCHING_CLASS]);

/** At-rules kept whole whatever the page: small, and read by name (animations, fonts, typed custom properties). */
const KEPT_WHOLE = new Set(["property", "keyframes", "font-face", "page", "counter-style", "font-feature-values"]);

type Piece =
  | { rule: string; needs: string[][] } // needs: one list per selector; any list all present keeps it ([] always)
  | { open: string; children: Piece[] }
  | { always: string };

/** The classes a selector requires: those outside parentheses and brackets, CSS escapes undone. */
export function requiredClasses(selector: string): string[] {
  const out: string[] = [];
  let depth = 0;
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i];
    if (c === "\\") i++;
    else if (c === "(" || c === "[") depth++;
    else if (c === ")" || c === "]") depth--;
    else if (c === '"' || c === "'") {
      for (i++; i < selector.length && selector[i] !== c; i++) if (selector[i] === "\\") i++;
    } else if (c === "." && depth === 0) {
      let name = "";
      let j = i + 1;
      while (j < selector.length) {
        const d = selector[j];
        if (d === "\\") {
          const hex = /^[0-9a-fA-F]{1,6} ?/.exec(selector.slice(j + 1, j + 8));
          name += hex ? String.fromCodePoint(parseInt(hex[0], 16)) : selector[j + 1];
          j += 1 + (hex ? hex[0].length : 1);
        } else if (/[\w-]/.test(d) || d.charCodeAt(0) > 127) {
          name += d;
          j++;
        } else break;
      }
      if (name && !SET_BY_SCRIPT.has(name)) out.push(name);
      i = j - 1;
    }
  }
  return out;
}

function pieces(nodes: ChildNode[] | undefined): Piece[] {
  const out: Piece[] = [];
  for (const node of nodes ?? []) {
    if (node.type === "rule") out.push({ rule: node.toString(), needs: postcss.list.comma(node.selector).map(requiredClasses) });
    else if (node.type === "atrule") {
      const at = node as AtRule;
      if (!at.nodes) out.push({ always: at.toString() + ";" }); // a statement: its ";" is the parent's
      else if (KEPT_WHOLE.has(at.name.replace(/^-\w+-/, ""))) out.push({ always: at.toString() });
      else out.push({ open: `@${at.name}${at.params ? " " + at.params : ""}{`, children: pieces(at.nodes) });
    }
  }
  return out;
}

// The renderer has one critical CSS: its rules are read once, on the first render.
let read: { css: string; pieces: Piece[] } | null = null;

/** css with only the rules a document using these classes needs. */
export function cutCss(css: string, classes: ReadonlySet<string>): string {
  if (read?.css !== css) read = { css, pieces: pieces(postcss.parse(css).nodes) };
  const parsed = read.pieces;
  const write = (list: Piece[]): string => {
    let text = "";
    for (const p of list) {
      if ("always" in p) text += p.always;
      else if ("rule" in p) {
        if (p.needs.some((need) => need.every((c) => classes.has(c)))) text += p.rule;
      } else {
        const inner = write(p.children);
        if (inner) text += p.open + inner + "}";
      }
    }
    return text;
  };
  return write(parsed);
}

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#x27;": "'", "&#39;": "'" };

/** Every class named in the markup's class attributes (as React writes them). */
export function documentClasses(html: string): Set<string> {
  const classes = new Set<string>();
  for (const m of html.matchAll(/\sclass="([^"]*)"/g)) {
    for (const c of m[1].replace(/&(?:amp|lt|gt|quot|#x27|#39);/g, (e) => ENTITIES[e]).split(/\s+/)) if (c) classes.add(c);
  }
  return classes;
}

const STYLE = /(<style\b[^>]*\bdata-critical=""[^>]*>)([\s\S]*?)(<\/style>)/;

/** The document with its critical <style> cut to its classes (as it is when a boundary is still pending, or it has none). */
export function cutDocument(html: string): string {
  if (html.includes("<!--$?-->")) return html;
  const m = STYLE.exec(html);
  if (!m) return html;
  const cut = cutCss(m[2], documentClasses(html));
  return html.slice(0, m.index) + m[1] + cut + m[3] + html.slice(m.index + m[0].length);
}

/**
 * A pass-through for React's output that cuts the critical CSS of the first
 * write: every chunk written in the same turn of the event loop is the
 * document (or the shell), cut once it is whole; later chunks (streamed
 * boundaries) pass as they come.
 */
export class CriticalCssCut extends Transform {
  private first: Buffer[] | null = [];
  private scheduled = false;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
    if (!this.first) return done(null, chunk);
    this.first.push(Buffer.from(chunk));
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.release());
    }
    done();
  }

  override _flush(done: TransformCallback) {
    this.release();
    done();
  }

  private release() {
    if (!this.first) return;
    const html = Buffer.concat(this.first).toString("utf8");
    this.first = null;
    // A visitor gone before the turn ended (the stream destroyed): nothing to send.
    if (html && !this.destroyed) this.push(Buffer.from(cutDocument(html), "utf8"));
  }
}
