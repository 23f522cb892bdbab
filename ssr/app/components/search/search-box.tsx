// The search box: a form that asks /search?q=… (GET), so it works without
// JavaScript; with it, React Router loads the results page in place. On the
// search page itself (onFocus), the results follow the typing.
import { useEffect, useRef } from "react";
import { Form } from "react-router";

export interface SearchBoxLabels {
  label: string;
  placeholder: string;
  button: string;
}

/** The longest query the edge reads (edge/internal/search MaxQueryRunes). */
export const MAX_QUERY = 100;

export function SearchBox({ labels, query, onFocus, className = "" }: { labels: SearchBoxLabels; query?: string; onFocus?: (input: HTMLInputElement) => void; className?: string }) {
  const input = useRef<HTMLInputElement>(null);
  // A box focused before the page hydrated raised no focus event React
  // heard: the visitor is already in it, so it counts as focused now.
  useEffect(() => {
    if (onFocus && input.current && input.current === document.activeElement) onFocus(input.current);
  }, [onFocus]);
  return (
    <Form method="get" action="/search" role="search" className={`flex max-w-xl gap-2 ${className}`}>
      <label htmlFor="site-search" className="sr-only">
        {labels.label}
      </label>
      <input
        ref={input}
        id="site-search"
        type="search"
        name="q"
        defaultValue={query}
        maxLength={MAX_QUERY}
        placeholder={labels.placeholder}
        autoComplete="off"
        onFocus={onFocus && ((e) => onFocus(e.currentTarget))}
        className="min-w-0 flex-1 rounded-lg border border-gray-300 bg-white px-4 py-2 text-base dark:border-gray-700 dark:bg-gray-900"
      />
      <button type="submit" className="rounded-lg bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700">
        {labels.button}
      </button>
    </Form>
  );
}
