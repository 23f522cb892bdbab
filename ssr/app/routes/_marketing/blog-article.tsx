// /blog/article/{slug}: one blog article, its Markdown rendered on the server.
import { data, useLoaderData } from "react-router";
import { ArticleNotFound } from "~/components/content/article-not-found";
import { ArticleView } from "~/components/content/article-view";
import { PreviewBanner } from "~/components/content/preview-banner";
import { blogArticle, contentLabels, pageContent } from "~/lib/content.server";
import { contentMeta } from "~/lib/content-meta";
import type { Route } from "./+types/blog-article";
import routeCopy from "virtual:route-copy";

export function loader({ params, request }: Route.LoaderArgs) {
  const article = blogArticle(request, params.slug);
  if (!article) throw data(null, { status: 404 });
  const { preview } = pageContent(request);
  return {
    article,
    preview,
    labels: { back: contentLabels.backToBlog, published: contentLabels.published, updated: contentLabels.updated, preview: contentLabels.previewBanner, expires: contentLabels.previewExpires },
  };
}

export const handle = { routeCopy };
export const meta: Route.MetaFunction = (args) =>
  contentMeta(args, args.loaderData && { title: `${args.loaderData.article.title} — Omnibus Blog`, description: args.loaderData.article.description }, args.loaderData?.preview);

export default function BlogArticlePage() {
  const { article, preview, labels } = useLoaderData<typeof loader>();
  return (
    <>
      <PreviewBanner preview={preview} label={labels.preview} expiresLabel={labels.expires} />
      <ArticleView article={article} back={{ to: "/blog", label: labels.back }} publishedLabel={labels.published} updatedLabel={labels.updated} />
    </>
  );
}

/** An unknown slug: the not-found content, with status 404 from the loader. */
export function ErrorBoundary() {
  return <ArticleNotFound back="blog" />;
}
