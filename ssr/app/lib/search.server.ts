// Server-only: the results of /search?q=. The edge answers the query itself
// (edge/internal/search) and sends the results with the page request, in the
// search header of shared/http.json (base64url JSON), as the journey pages
// get their data: the renderer never calls the edge. Only the edge reaches
// the renderer and it removes any copy a visitor sends; anything unreadable
// counts as "unavailable".
import searchContent from "@omnibus/shared/content/search.json";
import type { SearchBoxLabels } from "~/components/search/search-box";
import type { SearchResult } from "~/components/search/search-results";
import { SEARCH_HEADER } from "~/lib/http-names";
import { log } from "~/lib/log.server";

/** The results the edge sent, or status "unavailable" when there are none to read. */
export function searchResult(request: Request): SearchResult {
  const raw = request.headers.get(SEARCH_HEADER);
  if (raw) {
    try {
      const value = JSON.parse(Buffer.from(raw, "base64url").toString("utf8")) as SearchResult;
      if (value && typeof value.status === "string" && Array.isArray(value.results)) return value;
    } catch {
      // logged below
    }
    log.warn(`${SEARCH_HEADER}: not base64url JSON; the search page says search is unavailable`);
  }
  return { status: "unavailable", query: "", total: 0, results: [] };
}

/** The search box's words (shared/content/search.json), for the pages that show it. */
export const searchBoxLabels: SearchBoxLabels = {
  label: searchContent.label,
  placeholder: searchContent.placeholder,
  button: searchContent.button,
};

/** Every word of the search page. */
export const searchLabels = {
  ...searchBoxLabels,
  heading: searchContent.heading,
  intro: searchContent.intro,
  resultsFor: searchContent.resultsFor,
  count: searchContent.count,
  noResults: searchContent.noResults,
  browseHelp: searchContent.browseHelp,
  empty: searchContent.empty,
  tooMany: searchContent.tooMany,
  unavailable: searchContent.unavailable,
};
export type SearchLabels = typeof searchLabels;
