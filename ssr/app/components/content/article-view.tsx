// One article page: category, title, lead, date and the rendered body, in the
// classic single column (/blog/article/…) or with a side column listing its
// sections.
import { BackLink } from "./back-link";
import { Prose } from "./prose";
import type { ArticleSummary } from "~/lib/front-matter";
import { ArticleDates } from "./article-dates";
import { StaticMarkup } from "~/lib/static-markup";

export interface ArticleViewProps {
  article: ArticleSummary & { html: string };
  back: { to: string; label: string };
  publishedLabel: string;
  /** "Last updated": shown with the day the front matter's updated: names, when it does. */
  updatedLabel?: string;
  layout?: "classic" | "sidebar";
  /** The body's h2 headings (id, text), for the side column. */
  outline?: { id: string; text: string }[];
}

export function ArticleView({ article, back, publishedLabel, updatedLabel = "Last updated", layout = "classic", outline = [] }: ArticleViewProps) {
  // The article's head and its outline never move: the browser keeps their
  // server markup (lib/static-markup.tsx); the body is markup already (Prose).
  const header = (
    <StaticMarkup>
      <p className="mt-8 text-sm font-semibold tracking-wide text-brand-600 uppercase dark:text-brand-400">{article.categoryTitle ?? article.category}</p>
      <h1 className="mt-3 text-4xl font-bold tracking-tight text-balance sm:text-5xl">{article.title}</h1>
      <p className="mt-6 text-xl leading-8 text-gray-600 dark:text-gray-400">{article.description}</p>
      <p className="mt-6 text-sm text-gray-600 dark:text-gray-400">
        <ArticleDates article={article} dateLabel={publishedLabel} publishedLabel={publishedLabel} updatedLabel={updatedLabel} />
      </p>
    </StaticMarkup>
  );
  if (layout === "sidebar") {
    return (
      <article className="mx-auto max-w-7xl px-4 py-16 sm:px-6 lg:py-24">
        <BackLink to={back.to} label={back.label} />
        <div className="max-w-4xl">{header}</div>
        <div className="mt-10 grid gap-12 border-t border-gray-200 pt-2 lg:grid-cols-[minmax(0,1fr)_16rem] dark:border-gray-800">
          <Prose html={article.html} className="min-w-0" />
          {outline.length > 0 && (
            <StaticMarkup as="nav" aria-label="In this article" className="order-first pt-10 lg:order-last">
              <div className="lg:sticky lg:top-24">
                <p className="text-sm font-semibold text-gray-900 dark:text-white">In this article</p>
                <ul className="mt-3 space-y-2 border-l border-gray-200 text-sm dark:border-gray-800">
                  {outline.map((h) => (
                    <li key={h.id}>
                      <a href={`#${h.id}`} className="-ml-px block border-l border-transparent pl-4 text-gray-600 hover:border-brand-500 hover:text-gray-900 dark:text-gray-400 dark:hover:text-white">
                        {h.text}
                      </a>
                    </li>
                  ))}
                </ul>
              </div>
            </StaticMarkup>
          )}
        </div>
      </article>
    );
  }
  return (
    <article className="mx-auto max-w-3xl px-4 py-16 sm:px-6 lg:py-24">
      <BackLink to={back.to} label={back.label} />
      {header}
      <Prose html={article.html} className="mt-10 border-t border-gray-200 pt-2 dark:border-gray-800" />
    </article>
  );
}
