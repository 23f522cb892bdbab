// The inline CSS cut to the document (lib/critical-css.server.ts): a page
// downloads, parses and matches only the rules its own markup needs, and never
// loses one it does need (an unstyled element until the visitor's first sign).
// @vitest-environment node
import { describe, expect, it } from "vitest";
import { CriticalCssCut, cutCss, cutDocument, documentClasses, requiredClasses } from "./critical-css.server";

const CSS = [
  "@layer theme,base,utilities;",
  "@layer theme{:root,:host{--color-brand:#6428ef}}",
  "@layer base{*,:after,:before{box-sizing:border-box}html.dark{color-scheme:dark}}",
  "@layer utilities{",
  ".flex{display:flex}",
  ".grid{display:grid}",
  ".hover\\:underline:hover{text-decoration:underline}",
  ".w-1\\/2{width:50%}",
  ".aspect-\\[5\\/2\\]{aspect-ratio:5/2}",
  ".\\[\\&\\>svg\\]\\:size-4>svg{width:1rem}",
  ".dark\\:bg-gray-950:where(.dark,.dark *){background:#030712}",
  ".group-hover\\:block:is(:where(.group):hover *){display:block}",
  ".peer:not(.is-open)~.sibling-only{color:red}",
  "@media (min-width:64rem){.lg\\:flex{display:flex}.lg\\:grid{display:grid}}",
  "@media (min-width:96rem){.\\32 xl\\:grid{display:grid}}",
  "}",
  ".theme-switching :is(.transition){transition:none}",
  "@property --tw-ring-color{syntax:\"*\";inherits:false}",
  "@keyframes spin{to{transform:rotate(1turn)}}",
].join("");

const cut = (classes: string[]) => cutCss(CSS, new Set(classes));

describe("the inline CSS cut to a document's classes", () => {
  it("keeps the utilities the markup names and drops the others, with an empty @media gone", () => {
    const css = cut(["flex", "lg:flex"]);
    expect(css).toContain(".flex{display:flex}");
    expect(css).toContain("@media (min-width:64rem){.lg\\:flex{display:flex}}");
    expect(css).not.toContain(".grid{");
    expect(css).not.toContain("lg\\:grid");
    expect(css).not.toContain("min-width:96rem");
  });

  it("reads escaped class names as the markup writes them", () => {
    const css = cut(["hover:underline", "w-1/2", "aspect-[5/2]", "[&>svg]:size-4", "2xl:grid"]);
    for (const rule of [".hover\\:underline:hover", ".w-1\\/2", ".aspect-\\[5\\/2\\]", ".\\[\\&\\>svg\\]\\:size-4>svg", ".\\32 xl\\:grid"]) expect(css).toContain(rule);
  });

  // The theme script sets `dark` on <html> before hydration, and the theme
  // buttons work before it: a dark visitor's page must be dark from the inline CSS.
  it("keeps a dark: utility the markup names though no element carries `dark` in the server's markup", () => {
    expect(cut(["dark:bg-gray-950"])).toContain(".dark\\:bg-gray-950:where(.dark,.dark *)");
    expect(cut([])).not.toContain("bg-gray-950");
    expect(cut([])).toContain("html.dark{color-scheme:dark}");
    expect(cut([])).toContain(".theme-switching :is(.transition)");
  });

  it("requires only the classes outside parentheses: a :not() or :is() is kept rather than guessed", () => {
    expect(cut(["group-hover:block"])).toContain(".group-hover\\:block");
    expect(cut(["peer", "sibling-only"])).toContain(".peer:not(.is-open)~.sibling-only");
    expect(cut(["peer"])).not.toContain("sibling-only");
    expect(requiredClasses(".peer:not(.is-open)~.sibling-only")).toEqual(["peer", "sibling-only"]);
    expect(requiredClasses('a[href$=".pdf"].link')).toEqual(["link"]);
  });

  it("keeps what no class selects: element and root rules, @property, @keyframes and the layer order", () => {
    const css = cut([]);
    expect(css.startsWith("@layer theme,base,utilities;")).toBe(true);
    expect(css).toContain(":root,:host{--color-brand:#6428ef}");
    expect(css).toContain("*,:after,:before{box-sizing:border-box}");
    expect(css).toContain("@property --tw-ring-color");
    expect(css).toContain("@keyframes spin");
  });

  it("reads the classes of the markup as React escapes them", () => {
    expect([...documentClasses('<div class="flex [&amp;&gt;svg]:size-4"></div><svg class="  w-1/2 "></svg>')].sort()).toEqual(["[&>svg]:size-4", "flex", "w-1/2"]);
  });
});

const doc = (body: string) => `<!DOCTYPE html><html><head><style nonce="n" data-critical="">${CSS}</style></head><body>${body}</body></html>`;

describe("a rendered document", () => {
  it("carries in its <style data-critical> only the rules of its own markup, its attributes kept", () => {
    const html = cutDocument(doc('<main class="grid"></main>'));
    const style = html.match(/<style nonce="n" data-critical="">([\s\S]*?)<\/style>/)![1];
    expect(style).toContain(".grid{display:grid}");
    expect(style).not.toContain(".flex{");
    expect(html.endsWith('<main class="grid"></main></body></html>')).toBe(true);
  });

  it("keeps the whole CSS while a Suspense boundary is still to stream in: its markup is not known yet", () => {
    const shell = doc('<main class="grid"><!--$?--><template id="B:0"></template></main>');
    expect(cutDocument(shell)).toBe(shell);
  });

  it("is cut as React writes it: the first turn's chunks together, later chunks as they come", async () => {
    const stream = new CriticalCssCut();
    const out: string[] = [];
    stream.on("data", (chunk: Buffer) => out.push(chunk.toString()));
    const html = doc('<main class="flex"></main>');
    // React writes the document in pieces within one turn; a piece may split a multi-byte character.
    const bytes = Buffer.from(html.replace("</main>", "é</main>"));
    const at = bytes.indexOf("é") + 1;
    stream.write(bytes.subarray(0, 40));
    stream.write(bytes.subarray(40, at));
    stream.write(bytes.subarray(at));
    await new Promise((resolve) => setImmediate(resolve));
    stream.write("<script>late()</script>");
    stream.end();
    await new Promise((resolve) => stream.on("end", resolve));
    expect(out).toHaveLength(2);
    expect(out[0]).toContain(".flex{display:flex}");
    expect(out[0]).not.toContain(".grid{");
    expect(out[0]).toContain("é</main>");
    expect(out[1]).toBe("<script>late()</script>");
  });
});
