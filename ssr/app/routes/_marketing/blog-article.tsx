// /blog/article/{slug}: one blog article, its Markdown rendered on the server.
import { data, useLoaderData } from "react-router";
import { ArticleNotFound } from "~/components/content/article-not-found";
import { Prose } from "~/components/content/prose";
import { blogArticle, contentLabels } from "~/lib/content.server";
import { contentMeta } from "~/lib/content-meta";
import { formatDate } from "~/lib/front-matter";
import type { Route } from "./+types/blog-article";
import { BackLink } from "~/components/content/back-link";

export function loader({ params }: Route.LoaderArgs) {
  const article = blogArticle(params.slug);
  if (!article) throw data(null, { status: 404 });
  return { article, labels: { back: contentLabels.backToBlog, published: contentLabels.published } };
}

export const meta: Route.MetaFunction = (args) =>
  contentMeta(args, args.loaderData && { title: `${args.loaderData.article.title} — Omnibus Blog`, description: args.loaderData.article.description });

export default function BlogArticlePage() {
  const { article, labels } = useLoaderData<typeof loader>();
  return (
    <article className="mx-auto max-w-3xl px-4 py-16 sm:px-6 lg:py-24">
      <BackLink to="/blog" label={labels.back} />
      <p className="mt-8 text-sm font-semibold tracking-wide text-brand-600 uppercase dark:text-brand-400">{article.category}</p>
      <h1 className="mt-3 text-4xl font-bold tracking-tight text-balance sm:text-5xl">{article.title}</h1>
      <p className="mt-6 text-xl leading-8 text-gray-600 dark:text-gray-400">{article.description}</p>
      <p className="mt-6 text-sm text-gray-500 dark:text-gray-400">
        {labels.published} <time dateTime={article.date}>{formatDate(article.date)}</time>
      </p>
      <Prose html={article.html} className="mt-10 border-t border-gray-200 pt-2 dark:border-gray-800" />
    </article>
  );
}

/** An unknown slug: the not-found content, with status 404 from the loader. */
export function ErrorBoundary() {
  return <ArticleNotFound back="blog" />;
}
