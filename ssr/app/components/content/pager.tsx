import { Link } from "react-router";

export interface PagerLabels {
  olderArticles: string;
  newerArticles: string;
  pageOf: string;
  pagination: string;
}

/** The address of a list's page: the list's own for the first, ?page=N after. */
export const listPageHref = (base: string, page: number) => (page > 1 ? `${base}?page=${page}` : base);

/**
 * Links between a list's pages (newest first): plain links to real
 * addresses, server-rendered, so a reader without JavaScript and a crawler
 * follow them to every article. Nothing when the list fits one page.
 */
export function Pager({ base, page, pages, labels }: { base: string; page: number; pages: number; labels: PagerLabels }) {
  if (pages <= 1) return null;
  return (
    <nav aria-label={labels.pagination} className="mt-12 flex items-center justify-between gap-4 text-sm font-semibold">
      {page > 1 ? (
        <Link to={listPageHref(base, page - 1)} rel="prev" className="text-brand-600 hover:underline dark:text-brand-400">
          ← {labels.newerArticles}
        </Link>
      ) : (
        <span />
      )}
      <span className="font-normal text-gray-600 dark:text-gray-400">{labels.pageOf.replace("{page}", String(page)).replace("{pages}", String(pages))}</span>
      {page < pages ? (
        <Link to={listPageHref(base, page + 1)} rel="next" className="text-brand-600 hover:underline dark:text-brand-400">
          {labels.olderArticles} →
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
