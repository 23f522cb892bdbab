// Results as the visitor types, on the search page only: loaded when its box
// is first focused (a few hundred bytes), it asks GET /api/v1/search?q= a
// moment after the typing pauses and hands the results to the page. The
// address follows the query (history.replaceState), so a reload or a shared
// link shows the same results. These requests are not counted as searches:
// the page's own (Enter, or without JavaScript) are.
import type { SearchResult } from "./search-results";

const PAUSE_MS = 200;

export function followTyping(input: HTMLInputElement, show: (result: SearchResult, query: string) => void): void {
  if (input.dataset.live) return;
  input.dataset.live = "1";
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inFlight: AbortController | undefined;
  const follow = () => {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const q = input.value;
      inFlight?.abort();
      inFlight = new AbortController();
      try {
        const res = await fetch(`/api/v1/search?q=${encodeURIComponent(q)}`, { signal: inFlight.signal, headers: { accept: "application/json" } });
        if (!res.ok) return; // 429: the page's own results stay until the next pause
        const body = (await res.json()) as { data: SearchResult };
        const url = new URL(location.href);
        url.searchParams.set("q", q);
        history.replaceState(history.state, "", url);
        show(body.data, q);
      } catch {
        // aborted by newer typing, or offline: nothing to change
      }
    }, PAUSE_MS);
  };
  input.addEventListener("input", follow);
  // What the visitor typed while this script was on its way (it loads on
  // the first focus) raised no event here: follow it now.
  if (input.value !== input.defaultValue) follow();
}
