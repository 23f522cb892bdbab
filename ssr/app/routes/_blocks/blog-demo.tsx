// /blog/posts-2 … /blog/posts-10, /blog/post, /blog/post-2: the real blog
// articles in different list and article layouts, from the same content and
// the same components as /blog and /blog/article/….
import { useLoaderData } from "react-router";
import { ArticleList, type ArticleListLayout } from "~/components/content/article-list";
import { ArticleView } from "~/components/content/article-view";
import { TagList } from "~/components/ui/tag";
import { blogArticle, blogArticles, contentLabels } from "~/lib/content.server";
import { routeMeta } from "~/lib/meta";
import { useRouteEntry } from "~/lib/route-entry";
import { CatalogueHeader } from "./showcase";
import type { Route } from "./+types/blog-demo";
import routeCopy from "virtual:route-copy";

export const handle = { routeCopy };
export const meta = routeMeta;

type Layout = ArticleListLayout | "by-category" | "with-sidebar" | "featured-archive";
/** The list layout of each /blog/posts-N page. */
const LIST_LAYOUTS: Record<string, Layout> = {
  "blog-posts-2": "grid",
  "blog-posts-3": "list",
  "blog-posts-4": "featured",
  "blog-posts-5": "magazine",
  "blog-posts-6": "compact",
  "blog-posts-7": "timeline",
  "blog-posts-8": "by-category",
  "blog-posts-9": "with-sidebar",
  "blog-posts-10": "featured-archive",
};

export function loader({ request }: Route.LoaderArgs) {
  const articles = blogArticles();
  const single = /\/blog\/post(-2)?\/?$/.test(new URL(request.url).pathname);
  const article = single ? blogArticle(articles[0].slug) : undefined;
  const outline = article ? [...article.html.matchAll(/<h2 id="([^"]+)">([\s\S]*?)<\/h2>/g)].map((m) => ({ id: m[1], text: m[2].replace(/<[^>]+>/g, "") })) : [];
  return { articles, article, outline, labels: { readMore: contentLabels.readMore, published: contentLabels.published, back: contentLabels.backToBlog } };
}

export default function BlogDemoPage() {
  const { articles, article, outline, labels } = useLoaderData<typeof loader>();
  const entry = useRouteEntry();
  if (article) {
    return (
      <ArticleView
        article={article}
        back={{ to: "/blocks", label: "Back to the catalogue" }}
        publishedLabel={labels.published}
        layout={entry.id === "blog-post-2" ? "sidebar" : "classic"}
        outline={outline}
      />
    );
  }
  const layout = LIST_LAYOUTS[entry.id] ?? "grid";
  const categories = [...new Set(articles.map((a) => a.category))];
  return (
    <div className="mx-auto max-w-7xl px-4 py-16 sm:px-6">
      <CatalogueHeader />
      <p className="mt-2 text-sm text-gray-600 dark:text-gray-400">
        Layout: <code>{layout}</code>
      </p>
      <div className="mt-12">
        {layout === "by-category" ? (
          <div className="space-y-12">
            {categories.map((category) => (
              <section key={category}>
                <h2 className="text-xl font-bold tracking-tight">{category}</h2>
                <div className="mt-4">
                  <ArticleList articles={articles.filter((a) => a.category === category)} readMore={labels.readMore} layout="compact" />
                </div>
              </section>
            ))}
          </div>
        ) : layout === "with-sidebar" ? (
          <div className="grid gap-12 lg:grid-cols-[minmax(0,1fr)_16rem]">
            <ArticleList articles={articles} readMore={labels.readMore} layout="list" headingLevel="h2" />
            <aside aria-label="Topics">
              <p className="text-sm font-semibold text-gray-900 dark:text-white">Topics</p>
              <div className="mt-3">
                <TagList label="Topics" tags={categories.map((c) => ({ label: c, color: "brand" as const }))} />
              </div>
            </aside>
          </div>
        ) : layout === "featured-archive" ? (
          <div className="space-y-12">
            <ArticleList articles={articles.slice(0, 1)} readMore={labels.readMore} layout="featured" headingLevel="h2" />
            <section>
              <h2 className="text-xl font-bold tracking-tight">Archive</h2>
              <div className="mt-4">
                {/* The featured post above is not listed again (issue 32.6). */}
                <ArticleList articles={articles.slice(1)} readMore={labels.readMore} layout="compact" />
              </div>
            </section>
          </div>
        ) : (
          <ArticleList articles={articles} readMore={labels.readMore} layout={layout} headingLevel="h2" />
        )}
      </div>
    </div>
  );
}
