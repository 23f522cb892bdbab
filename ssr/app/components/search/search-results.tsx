// The results of a search: title, category and snippet, the matched words in
// <mark>. The edge sends text segments, never markup: React escapes every
// segment, so nothing of an article reaches the page as HTML.
import { Fragment } from "react";
import { Link } from "react-router";

export interface Segment {
  text: string;
  mark?: boolean;
}

export interface SearchItem {
  type: "help" | "blog" | "page";
  url: string;
  category: string;
  title: Segment[];
  snippet: Segment[];
}

/** What the edge answers (edge/internal/search Result); "unavailable" when the renderer got nothing readable. */
export interface SearchResult {
  status: "ok" | "empty" | "limited" | "unavailable";
  query: string;
  total: number;
  results: SearchItem[];
}

export function Marked({ segments }: { segments: Segment[] }) {
  return (
    <>
      {segments.map((s, i) => (s.mark ? <mark key={i}>{s.text}</mark> : <Fragment key={i}>{s.text}</Fragment>))}
    </>
  );
}

export function SearchResults({ results }: { results: SearchItem[] }) {
  return (
    <ol className="mt-8 space-y-8" data-search-results>
      {results.map((r) => (
        <li key={r.url}>
          <p className="text-sm font-semibold text-brand-600 dark:text-brand-400">{r.category}</p>
          <h2 className="mt-1 text-xl font-semibold">
            <Link to={r.url} className="hover:underline">
              <Marked segments={r.title} />
            </Link>
          </h2>
          <p className="mt-2 text-gray-600 dark:text-gray-400">
            <Marked segments={r.snippet} />
          </p>
        </li>
      ))}
    </ol>
  );
}
