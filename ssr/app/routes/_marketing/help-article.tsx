// /help/category/article/{slug}: one help-centre article, rendered on the server.
import { data, Link, useLoaderData } from "react-router";
import { ArticleNotFound } from "~/components/content/article-not-found";
import { helpCategoryHref } from "~/components/content/article-list";
import { ArticleDates } from "~/components/content/article-dates";
import { Prose } from "~/components/content/prose";
import { PreviewBanner } from "~/components/content/preview-banner";
import { contentLabels, helpArticle, helpCategory, pageContent } from "~/lib/content.server";
import { contentMeta } from "~/lib/content-meta";
import type { Route } from "./+types/help-article";
import routeCopy from "virtual:route-copy";

export function loader({ params, request }: Route.LoaderArgs) {
  const article = helpArticle(request, params.slug);
  const category = article && helpCategory(request, article.category);
  if (!article || !category) throw data(null, { status: 404 });
  const { preview } = pageContent(request);
  const { published, updated, backToHelp, moreHelp, moreHelpText, moreHelpLink, previewBanner, previewExpires } = contentLabels;
  return { article, category, preview, labels: { published, updated, backToHelp, moreHelp, moreHelpText, moreHelpLink, previewBanner, previewExpires } };
}

export const handle = { routeCopy };
export const meta: Route.MetaFunction = (args) =>
  contentMeta(args, args.loaderData && { title: `${args.loaderData.article.title} — Omnibus Help`, description: args.loaderData.article.description }, args.loaderData?.preview);

export default function HelpArticlePage() {
  const { article, category, preview, labels } = useLoaderData<typeof loader>();
  return (
    <>
    <PreviewBanner preview={preview} label={labels.previewBanner} expiresLabel={labels.previewExpires} />
    <article className="mx-auto max-w-3xl px-4 py-16 sm:px-6 lg:py-24">
      <nav aria-label="Breadcrumb" className="text-sm">
        <ol className="flex flex-wrap gap-2 text-gray-500 dark:text-gray-400">
          <li>
            <Link to="/help-centre" className="font-semibold text-brand-600 hover:underline dark:text-brand-400">
              {labels.backToHelp}
            </Link>
          </li>
          <li aria-hidden="true">/</li>
          <li>
            <Link to={helpCategoryHref(category.slug)} className="hover:underline">
              {category.title}
            </Link>
          </li>
        </ol>
      </nav>
      <h1 className="mt-8 text-4xl font-bold tracking-tight text-balance sm:text-5xl">{article.title}</h1>
      <p className="mt-6 text-xl leading-8 text-gray-600 dark:text-gray-400">{article.description}</p>
      <p className="mt-6 text-sm text-gray-500 dark:text-gray-400">
        <ArticleDates article={article} dateLabel={labels.updated} publishedLabel={labels.published} updatedLabel={labels.updated} />
      </p>
      <Prose html={article.html} className="mt-10 border-t border-gray-200 pt-2 dark:border-gray-800" />
      <section className="mt-16 rounded-2xl bg-gray-50 p-6 dark:bg-white/5">
        <h2 className="text-lg font-semibold">{labels.moreHelp}</h2>
        <p className="mt-2 text-gray-600 dark:text-gray-400">{labels.moreHelpText}</p>
        <Link to="/contact-us" className="mt-4 inline-block font-semibold text-brand-600 hover:underline dark:text-brand-400">
          {labels.moreHelpLink}
        </Link>
      </section>
    </article>
    </>
  );
}

/** An unknown slug: the not-found content, with status 404 from the loader. */
export function ErrorBoundary() {
  return <ArticleNotFound back="help" />;
}
