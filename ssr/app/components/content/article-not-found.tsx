import { Link } from "react-router";
// Named import: only the labels reach the client bundle, not every page's copy.
import { labels } from "../../../../shared/content/pages.json";

/**
 * What an unknown article or help topic shows, with HTTP status 404 (the
 * route's loader throws data(null, {status: 404}) and its ErrorBoundary renders this).
 */
export function ArticleNotFound({ back }: { back: "blog" | "help" }) {
  const text = labels;
  return (
    <section className="mx-auto flex max-w-xl flex-col justify-center px-6 py-24 text-center">
      <p className="text-sm font-semibold text-brand-600 dark:text-brand-400">404</p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight sm:text-4xl">Page not found</h1>
      <p className="mt-4 text-gray-600 dark:text-gray-400">{text.notFoundArticle}</p>
      <Link to={back === "blog" ? "/blog" : "/help-centre"} className="mt-8 font-semibold text-brand-600 hover:underline dark:text-brand-400">
        {back === "blog" ? text.browseBlog : text.browseHelp}
      </Link>
    </section>
  );
}
