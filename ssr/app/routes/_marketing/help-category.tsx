// /help/category/{slug}: the help-centre articles of one topic.
import { data, useLoaderData } from "react-router";
import { ArticleList } from "~/components/content/article-list";
import { ArticleNotFound } from "~/components/content/article-not-found";
import { PreviewBanner } from "~/components/content/preview-banner";
import { contentLabels, helpArticlesIn, helpCategory, listPage, pageContent } from "~/lib/content.server";
import { Pager } from "~/components/content/pager";
import { contentMeta } from "~/lib/content-meta";
import type { Route } from "./+types/help-category";
import { BackLink } from "~/components/content/back-link";
import { StaticMarkup } from "~/lib/static-markup";
import routeCopy from "virtual:route-copy";
import { SearchBox } from "~/components/search/search-box";
import { searchBoxLabels } from "~/lib/search.server";

export function loader({ params, request }: Route.LoaderArgs) {
  const category = helpCategory(request, params.slug);
  if (!category) throw data(null, { status: 404 });
  const { preview } = pageContent(request);
  // A topic's older guides are on ?page=2, 3...: one past the last is no page.
  const list = listPage(request);
  if (list.page > list.pages) throw data(null, { status: 404 });
  const { backToHelp, readMore, noArticles, articlesInCategory, previewBanner, previewExpires, olderArticles, newerArticles, pageOf, pagination } = contentLabels;
  return { category, preview, list, articles: helpArticlesIn(request, category.slug), labels: { backToHelp, readMore, noArticles, articlesInCategory, previewBanner, previewExpires, olderArticles, newerArticles, pageOf, pagination }, search: searchBoxLabels };
}

export const handle = { routeCopy };
export const meta: Route.MetaFunction = (args) =>
  contentMeta(args, args.loaderData && { title: `${args.loaderData.category.title} — Omnibus Help`, description: args.loaderData.category.description }, args.loaderData?.preview);

export default function HelpCategoryPage() {
  const { category, articles, preview, labels, search, list } = useLoaderData<typeof loader>();
  // Nothing here moves: the browser keeps the server's markup (lib/static-markup.tsx).
  return (
    <>
    <PreviewBanner preview={preview} label={labels.previewBanner} expiresLabel={labels.previewExpires} />
    <StaticMarkup className="mx-auto max-w-7xl px-4 py-16 sm:px-6 lg:py-24">
      <BackLink to="/help-centre" label={labels.backToHelp} />
      <h1 className="mt-8 text-4xl font-bold tracking-tight text-balance sm:text-5xl">{category.title}</h1>
      <p className="mt-6 max-w-3xl text-lg text-gray-600 dark:text-gray-400">{category.description}</p>
      {category.intro ? <p className="mt-4 max-w-3xl text-base text-gray-700 dark:text-gray-300">{category.intro}</p> : null}
      <SearchBox labels={search} className="mt-8" />
      <h2 className="sr-only">{labels.articlesInCategory}</h2>
      <div className="mt-12">
        {articles.length > 0 ? (
          <ArticleList articles={articles} kind="help" readMore={labels.readMore} />
        ) : (
          <p className="text-gray-600 dark:text-gray-400">{labels.noArticles}</p>
        )}
      </div>
      <Pager base={`/help/category/${category.slug}`} page={list.page} pages={list.pages} labels={labels} />
    </StaticMarkup>
    </>
  );
}

/** An unknown topic: the not-found content, with status 404 from the loader. */
export function ErrorBoundary() {
  return <ArticleNotFound back="help" />;
}
