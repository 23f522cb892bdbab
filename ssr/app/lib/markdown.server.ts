// Server-only: Markdown → HTML for policies and articles. Loaders send the
// finished HTML, so the Markdown library never reaches the browser.
import { Marked, type Tokens } from "marked";

/** "2. Plans, fees and taxes" → "plans-fees-and-taxes" */
export function headingId(text: string): string {
  return text
    .toLowerCase()
    .replace(/<[^>]*>|&[a-z]+;|[*_`]/g, "")
    .replace(/^\d+\.\s*/, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

const marked = new Marked({
  gfm: true,
  async: false,
  renderer: {
    // Headings get ids from their text, so a section can be linked to (/privacy-policy#your-rights).
    heading({ tokens, depth, text }: Tokens.Heading) {
      return `<h${depth} id="${headingId(text)}">${this.parser.parseInline(tokens)}</h${depth}>\n`;
    },
  },
});

/** HTML of trusted Markdown from shared/content (our own files, never visitor input). */
export function renderMarkdown(markdown: string): string {
  // Wide tables scroll sideways on narrow screens instead of being cut off.
  return marked
    .parse(markdown, { async: false })
    .replace(/<table>/g, '<div class="table-scroll" tabindex="0"><table>')
    .replace(/<\/table>/g, "</table></div>");
}
