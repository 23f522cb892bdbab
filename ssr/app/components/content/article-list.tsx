import { Link } from "react-router";
import { formatDate, type ArticleSummary } from "~/lib/front-matter";

/** Articles as cards linking to their pages (the /blog and help-centre indexes). */
export function ArticleList({ articles, hrefOf, readMore }: { articles: ArticleSummary[]; hrefOf: (slug: string) => string; readMore: string }) {
  return (
    <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
      {articles.map((article) => (
        <li key={article.slug} className="flex flex-col rounded-2xl border border-gray-200 p-6 dark:border-gray-800">
          <p className="text-sm text-gray-500 dark:text-gray-400">
            <time dateTime={article.date}>{formatDate(article.date)}</time>
          </p>
          <h3 className="mt-3 text-lg font-semibold text-gray-900 dark:text-white">
            <Link to={hrefOf(article.slug)} className="hover:text-brand-600 dark:hover:text-brand-400">
              {article.title}
            </Link>
          </h3>
          <p className="mt-3 flex-1 text-gray-600 dark:text-gray-400">{article.description}</p>
          <Link
            to={hrefOf(article.slug)}
            aria-label={`${readMore}: ${article.title}`}
            className="mt-4 text-sm font-semibold text-brand-600 hover:underline dark:text-brand-400"
          >
            {readMore} <span aria-hidden="true">→</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}

export const blogHref = (slug: string) => `/blog/article/${slug}`;
export const helpHref = (slug: string) => `/help/category/article/${slug}`;
export const helpCategoryHref = (slug: string) => `/help/category/${slug}`;
