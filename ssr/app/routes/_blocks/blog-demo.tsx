// /blog/posts-2 … /blog/posts-10, /blog/post, /blog/post-2: the real blog
// articles in different list and article layouts, from the same content and
// the same components as /blog and /blog/article/….
import { useLoaderData } from "react-router";
import { ArticleList, type ArticleListLayout } from "~/components/content/article-list";
import { ArticleView } from "~/components/content/article-view";
import { TagList } from "~/components/ui/tag";
import type { ArticleSummary } from "~/lib/front-matter";
import { blogArticles, contentLabels, pageContent } from "~/lib/content.server";
import { routeMeta } from "~/lib/meta";
import { useRouteEntry } from "~/lib/route-entry";
import { useHydrated } from "~/components/auth/form-parts";
import { componentHome } from "./catalogue-data.server";
import { CatalogueHeader, UsagePanel } from "./showcase";
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
  const articles = blogArticles(request);
  const single = /\/blog\/post(-2)?\/?$/.test(new URL(request.url).pathname);
  // The single-article layouts show the newest article (the edge sends it with the list).
  const article = single ? pageContent(request).article : undefined;
  const outline = article ? [...article.html.matchAll(/<h2 id="([^"]+)">([\s\S]*?)<\/h2>/g)].map((m) => ({ id: m[1], text: m[2].replace(/<[^>]+>/g, "") })) : [];
  const home = componentHome(single ? ArticleView : ArticleList);
  return { articles, article, outline, home, labels: { readMore: contentLabels.readMore, published: contentLabels.published, back: contentLabels.backToBlog } };
}

/**
 * The content a page gives ArticleList for a layout: the articles' front
 * matter (from shared/content/blog/*.md) and the labels. A layout made of
 * several lists (by category, featured and archive) shows each list's.
 */
function listContent(layout: Layout, articles: ArticleSummary[], readMore: string) {
  if (layout === "by-category") return [...new Set(articles.map((a) => a.category))].map((category) => ({ articles: articles.filter((a) => a.category === category), readMore, layout: "compact" }));
  if (layout === "with-sidebar") return { articles, readMore, layout: "list", headingLevel: "h2" };
  if (layout === "featured-archive") return [{ articles: articles.slice(0, 1), readMore, layout: "featured", headingLevel: "h2" }, { articles: articles.slice(1), readMore, layout: "compact" }];
  return { articles, readMore, layout, headingLevel: "h2" };
}

export default function BlogDemoPage() {
  const { articles, article, outline, home, labels } = useLoaderData<typeof loader>();
  const entry = useRouteEntry();
  const hydrated = useHydrated();
  if (article) {
    const layout = entry.id === "blog-post-2" ? "sidebar" : "classic";
    // The article's content is its Markdown file: front matter and body (shown without the body's HTML).
    const { html: _html, ...frontMatter } = article;
    return (
      <>
        <ArticleView article={article} back={{ to: "/blocks", label: "Back to the catalogue" }} publishedLabel={labels.published} layout={layout} outline={outline} />
        <section aria-label="Content of this layout" className="mx-auto max-w-7xl px-4 pb-16 sm:px-6">
          <UsagePanel title={`Layout ${layout}`} home={home} source={`shared/content/blog/${article.slug}.md`} json={JSON.stringify({ layout, article: frontMatter }, null, 2)} hydrated={hydrated} />
        </section>
      </>
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
                {/* The featured post above is not listed again. */}
                <ArticleList articles={articles.slice(1)} readMore={labels.readMore} layout="compact" />
              </div>
            </section>
          </div>
        ) : (
          <ArticleList articles={articles} readMore={labels.readMore} layout={layout} headingLevel="h2" />
        )}
      </div>
      {/* Below the layout it describes: what the page gives the list. */}
      <section aria-label="Content of this layout" className="mt-16">
        <UsagePanel title={`Layout ${layout}`} home={home} source="shared/content/blog/*.md (the posts' front matter)" json={JSON.stringify(listContent(layout, articles, labels.readMore), null, 2)} hydrated={hydrated} />
      </section>
    </div>
  );
}
