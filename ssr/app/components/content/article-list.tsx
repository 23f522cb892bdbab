import { Link } from "react-router";
import { formatDate, type ArticleSummary } from "~/lib/front-matter";

export type ArticleListLayout = "grid" | "list" | "featured" | "magazine" | "compact" | "timeline";

export interface ArticleListProps {
  articles: ArticleSummary[];
  /** Which section the articles belong to (decides their links). */
  kind?: "blog" | "help";
  readMore: string;
  /** grid (the /blog index), list, featured (first one large), magazine (lead + side column), compact (titles), timeline (by date). */
  layout?: ArticleListLayout;
  headingLevel?: "h2" | "h3";
}

export const blogHref = (slug: string) => `/blog/article/${slug}`;
export const helpHref = (slug: string) => `/help/category/article/${slug}`;
export const helpCategoryHref = (slug: string) => `/help/category/${slug}`;

/** Articles linking to their pages, in one of several layouts (the /blog and help-centre indexes, the blog demos). */
export function ArticleList({ articles, kind = "blog", readMore, layout = "grid", headingLevel = "h3" }: ArticleListProps) {
  const hrefOf = kind === "help" ? helpHref : blogHref;
  const item = (article: ArticleSummary, size: "lg" | "md" | "sm" = "md") => (
    <ArticleCard key={article.slug} article={article} href={hrefOf(article.slug)} readMore={readMore} size={size} Heading={headingLevel} />
  );
  switch (layout) {
    case "list":
      return <ul className="divide-y divide-gray-200 dark:divide-gray-800">{articles.map((a) => <li key={a.slug} className="py-8 first:pt-0">{item(a)}</li>)}</ul>;
    case "featured": {
      const [first, ...rest] = articles;
      return (
        <div className="space-y-8">
          {first && <div className="rounded-3xl bg-brand-50 p-8 sm:p-12 dark:bg-brand-400/10">{item(first, "lg")}</div>}
          <ul className="grid gap-6 sm:grid-cols-2">{rest.map((a) => <li key={a.slug} className="rounded-2xl border border-gray-200 p-6 dark:border-gray-800">{item(a)}</li>)}</ul>
        </div>
      );
    }
    case "magazine": {
      const [first, ...rest] = articles;
      return (
        <div className="grid gap-10 lg:grid-cols-[2fr_1fr]">
          {first && <div className="border-b border-gray-200 pb-8 lg:border-r lg:border-b-0 lg:pr-10 dark:border-gray-800">{item(first, "lg")}</div>}
          <ul className="space-y-8">{rest.map((a) => <li key={a.slug}>{item(a, "sm")}</li>)}</ul>
        </div>
      );
    }
    case "compact":
      return (
        <ul className="divide-y divide-gray-200 rounded-2xl border border-gray-200 dark:divide-gray-800 dark:border-gray-800">
          {articles.map((a) => (
            <li key={a.slug} className="flex flex-col gap-1 px-5 py-4 sm:flex-row sm:items-baseline sm:justify-between sm:gap-6">
              <Link to={hrefOf(a.slug)} className="font-semibold text-gray-900 hover:text-brand-700 dark:text-white dark:hover:text-brand-300">
                {a.title}
              </Link>
              <time dateTime={a.date} className="flex-none text-sm text-gray-600 dark:text-gray-400">
                {formatDate(a.date)}
              </time>
            </li>
          ))}
        </ul>
      );
    case "timeline":
      return (
        <ol className="relative space-y-10 border-l border-gray-200 pl-8 dark:border-gray-800">
          {[...articles]
            .sort((a, b) => b.date.localeCompare(a.date))
            .map((a) => (
              <li key={a.slug} className="relative">
                <span aria-hidden="true" className="absolute top-1.5 -left-[2.4rem] size-3 rounded-full bg-brand-600 ring-4 ring-white dark:bg-brand-400 dark:ring-gray-950" />
                {item(a)}
              </li>
            ))}
        </ol>
      );
    default:
      return (
        <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {articles.map((a) => (
            <li key={a.slug} className="flex flex-col rounded-2xl border border-gray-200 p-6 dark:border-gray-800">
              {item(a)}
            </li>
          ))}
        </ul>
      );
  }
}

function ArticleCard({ article, href, readMore, size, Heading }: { article: ArticleSummary; href: string; readMore: string; size: "lg" | "md" | "sm"; Heading: "h2" | "h3" }) {
  const title = { lg: "text-3xl font-bold tracking-tight sm:text-4xl", md: "text-lg font-semibold", sm: "text-base font-semibold" }[size];
  return (
    <div className="flex h-full flex-col">
      <p className="text-sm text-gray-600 dark:text-gray-400">
        <time dateTime={article.date}>{formatDate(article.date)}</time>
        <span aria-hidden="true"> · </span>
        {article.categoryTitle ?? article.category}
      </p>
      <Heading className={`mt-3 text-gray-900 dark:text-white ${title}`}>
        <Link to={href} className="hover:text-brand-600 dark:hover:text-brand-400">
          {article.title}
        </Link>
      </Heading>
      {size !== "sm" && <p className={`mt-3 flex-1 text-gray-600 dark:text-gray-400 ${size === "lg" ? "text-lg" : ""}`}>{article.description}</p>}
      <Link to={href} aria-label={`${readMore}: ${article.title}`} className="mt-4 text-sm font-semibold text-brand-600 hover:underline dark:text-brand-400">
        {readMore} <span aria-hidden="true">→</span>
      </Link>
    </div>
  );
}
