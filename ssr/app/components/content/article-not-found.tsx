// Named import: only the labels reach the client bundle, not every page's copy.
import { labels } from "@omnibus/shared/content/pages.json";
import { NotFound } from "./not-found";

/**
 * What an unknown article or help topic shows, with HTTP status 404 (the
 * route's loader throws data(null, {status: 404}) and its ErrorBoundary renders this).
 */
export function ArticleNotFound({ back }: { back: "blog" | "help" }) {
  const [to, backLabel] = back === "blog" ? ["/blog", labels.browseBlog] : ["/help-centre", labels.browseHelp];
  return <NotFound text={labels.notFoundArticle} to={to} backLabel={backLabel} />;
}
