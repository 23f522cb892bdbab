// /blog/article/{slug}: one blog article, its Markdown rendered on the server.
import { data, useLoaderData } from "react-router";
import { ArticleNotFound } from "~/components/content/article-not-found";
import { ArticleView } from "~/components/content/article-view";
import { blogArticle, contentLabels } from "~/lib/content.server";
import { contentMeta } from "~/lib/content-meta";
import type { Route } from "./+types/blog-article";
import routeCopy from "virtual:route-copy";

export function loader({ params }: Route.LoaderArgs) {
  const article = blogArticle(params.slug);
  if (!article) throw data(null, { status: 404 });
  return { article, labels: { back: contentLabels.backToBlog, published: contentLabels.published, updated: contentLabels.updated } };
}

export const handle = { routeCopy };
export const meta: Route.MetaFunction = (args) =>
  contentMeta(args, args.loaderData && { title: `${args.loaderData.article.title} — Omnibus Blog`, description: args.loaderData.article.description });

export default function BlogArticlePage() {
  const { article, labels } = useLoaderData<typeof loader>();
  return <ArticleView article={article} back={{ to: "/blog", label: labels.back }} publishedLabel={labels.published} updatedLabel={labels.updated} />;
}

/** An unknown slug: the not-found content, with status 404 from the loader. */
export function ErrorBoundary() {
  return <ArticleNotFound back="blog" />;
}
