// Articles are Markdown with a small front matter block, the same format the
// edge parses (edge/internal/content): "---", one "key: value" per line (a
// value may be wrapped in double quotes), "---", then the Markdown body.
// Both parsers run shared/front-matter-cases.json.

export interface ArticleSummary {
  slug: string;
  title: string;
  description: string;
  /** YYYY-MM-DD: the day it was published. */
  date: string;
  /** YYYY-MM-DD, optional: the day its content was last revised (not before date). */
  updated?: string;
  category: string;
  /** The category's name to show, when category is a slug (help articles: "Marketing and AI"). */
  categoryTitle?: string;
}

export interface ArticleSource extends ArticleSummary {
  /** The Markdown after the front matter. */
  body: string;
}

/** Splits a Markdown file into its front matter and body; throws on a malformed file. */
export function parseFrontMatter(source: string, file = "article"): { fields: Record<string, string>; body: string } {
  const text = source.replace(/\r\n/g, "\n");
  if (!text.startsWith("---\n")) throw new Error(`${file}: no front matter (the file must start with ---)`);
  // The closing line starts after the opening one (as the edge reads it: "---\n---\n" is not closed).
  const end = text.indexOf("\n---\n", 4);
  if (end < 0) throw new Error(`${file}: front matter is not closed with ---`);
  const fields: Record<string, string> = {};
  for (const line of text.slice(4, end).split("\n")) {
    if (!line.trim()) continue;
    const colon = line.indexOf(":");
    if (colon < 0) throw new Error(`${file}: front matter line "${line}" is not key: value`);
    let value = line.slice(colon + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    fields[line.slice(0, colon).trim()] = value;
  }
  return { fields, body: text.slice(end + 5).trim() + "\n" };
}

/** An article with all five front-matter fields (and updated, when given), or an error naming what is missing or wrong. */
export function parseArticle(source: string, file = "article"): ArticleSource {
  const { fields, body } = parseFrontMatter(source, file);
  for (const key of ["slug", "title", "description", "date", "category"]) {
    if (!fields[key]) throw new Error(`${file}: front matter has no ${key}`);
  }
  if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(fields.slug)) throw new Error(`${file}: slug "${fields.slug}" is not lower-case words joined by hyphens`);
  if (!isDay(fields.date)) throw new Error(`${file}: date "${fields.date}" is not YYYY-MM-DD`);
  const { slug, title, description, date, category, updated } = fields;
  if (updated !== undefined) {
    if (!isDay(updated)) throw new Error(`${file}: updated "${updated}" is not YYYY-MM-DD`);
    if (updated < date) throw new Error(`${file}: updated ${updated} is before date ${date}`);
  }
  return { slug, title, description, date, ...(updated !== undefined && { updated }), category, body };
}

/** A YYYY-MM-DD date that names a real day (2026-02-30 does not), as Go's time.Parse reads it. */
function isDay(date: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return false;
  const d = new Date(`${date}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === date;
}

/**
 * "2026-11-03" → "3 November 2026", the en-IN long date, the same on server
 * and client. Written out rather than with Intl.DateTimeFormat: making that
 * formatter loads the locale's data, about 18 ms of an article's hydration
 * on the first call (70 ms at Lighthouse's 4× CPU slowdown), for twelve words.
 */
export function formatDate(date: string): string {
  const [year, month, day] = date.split("-").map(Number);
  return `${day} ${MONTHS[month - 1]} ${year}`;
}

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
