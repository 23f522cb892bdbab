// /search?q=…: site search, rendered on the server with the results the edge
// sends (lib/search.server.ts), so it works without JavaScript. With it, the
// results follow the typing once the box is focused (components/search/live.ts).
import { useCallback, useEffect, useState } from "react";
import { data, Link, useLoaderData } from "react-router";
import { SearchBox } from "~/components/search/search-box";
import { SearchResults, type SearchResult } from "~/components/search/search-results";
import { searchLabels, searchResult } from "~/lib/search.server";
import { routeMeta } from "~/lib/meta";
import type { Route } from "./+types/search";
import routeCopy from "virtual:route-copy";

export const handle = { routeCopy };
export const meta = routeMeta;

export function loader({ request }: Route.LoaderArgs) {
  const query = new URL(request.url).searchParams.get("q") ?? "";
  const result = searchResult(request);
  const body = { query, result, labels: searchLabels };
  // Too many searches from this client: the page says so, with the status.
  if (result.status === "limited") return data(body, { status: 429 });
  return body;
}

const fill = (text: string, values: Record<string, string | number>) => text.replace(/\{(\w+)\}/g, (_, k: string) => String(values[k] ?? ""));

export default function SearchPage() {
  const loaded = useLoaderData<typeof loader>();
  const { labels } = loaded;
  const [live, setLive] = useState<{ result: SearchResult; query: string } | null>(null);
  // A new page (another query submitted) replaces what the typing showed.
  useEffect(() => setLive(null), [loaded]);
  const { result, query } = live ?? loaded;
  const onFocus = useCallback((input: HTMLInputElement) => {
    void import("~/components/search/live").then((m) => m.followTyping(input, (r, q) => setLive({ result: r, query: q })));
  }, []);
  const shown = result.query || query.trim();
  return (
    <div className="mx-auto max-w-3xl px-4 py-16 sm:px-6 lg:py-24">
      <h1 className="text-4xl font-bold tracking-tight sm:text-5xl">{labels.heading}</h1>
      <p className="mt-4 text-lg text-gray-600 dark:text-gray-400">{labels.intro}</p>
      <SearchBox labels={labels} query={loaded.query} onFocus={onFocus} className="mt-8" />
      <div aria-live="polite">
        {result.status === "ok" && (
          <>
            <p className="mt-8 text-sm text-gray-600 dark:text-gray-400">
              {fill(labels.resultsFor, { query: shown })} · {fill(result.total === 1 ? labels.count.one : labels.count.other, { count: result.total })}
            </p>
            {result.results.length > 0 ? (
              <SearchResults results={result.results} />
            ) : (
              <p className="mt-6">
                {fill(labels.noResults, { query: shown })}{" "}
                <Link to="/help-centre" className="font-semibold text-brand-600 hover:underline dark:text-brand-400">
                  {labels.browseHelp}
                </Link>
              </p>
            )}
          </>
        )}
        {result.status === "empty" && <p className="mt-8 text-gray-600 dark:text-gray-400">{labels.empty}</p>}
        {result.status === "limited" && <p className="mt-8">{labels.tooMany}</p>}
        {result.status === "unavailable" && <p className="mt-8">{labels.unavailable}</p>}
      </div>
    </div>
  );
}
