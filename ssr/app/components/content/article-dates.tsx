import { formatDate, type ArticleSummary } from "~/lib/front-matter";

/**
 * An article's dates as its JSON-LD and article:* tags name them
 * (lib/seo.server.tsx: datePublished, dateModified): the day it was
 * published, and the day it was last revised when its front matter says
 * updated:. dateLabel introduces the date alone ("Published"; the help
 * centre's "Last updated").
 */
export function ArticleDates({ article, dateLabel, publishedLabel, updatedLabel }: { article: ArticleSummary; dateLabel: string; publishedLabel: string; updatedLabel: string }) {
  const published = <time dateTime={article.date}>{formatDate(article.date)}</time>;
  if (!article.updated) return <>{dateLabel} {published}</>;
  return (
    <>
      {publishedLabel} {published} · {updatedLabel} <time dateTime={article.updated}>{formatDate(article.updated)}</time>
    </>
  );
}
