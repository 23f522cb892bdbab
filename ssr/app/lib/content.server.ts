// Server-only: the site's articles and policies from shared/content, bundled
// into the server build at build time (import.meta.glob), and the generic
// content pages. Loaders turn Markdown into HTML here; pages get plain data.
import contactContent from "../../../shared/content/contact.json";
import helpCategories from "../../../shared/content/help/categories.json";
import pagesContent from "../../../shared/content/pages.json";
import site from "../../../shared/content/site.json";
import { cataloguePlans } from "./plans";

export { cataloguePlans };
import { parseArticle, parseFrontMatter, type ArticleSource, type ArticleSummary } from "./front-matter";
import { renderMarkdown } from "./markdown.server";
import { withSiteSettings } from "./site.server";

const blogFiles = import.meta.glob<string>("../../../shared/content/blog/*.md", { query: "?raw", import: "default", eager: true });
const helpFiles = import.meta.glob<string>("../../../shared/content/help/*.md", { query: "?raw", import: "default", eager: true });
const policyFiles = import.meta.glob<string>("../../../shared/content/policies/*.md", { query: "?raw", import: "default", eager: true });

export type { ArticleSummary };
export interface HelpCategory {
  slug: string;
  title: string;
  description: string;
}

/** An article ready to show: its front matter and its body as HTML. */
export interface RenderedArticle extends ArticleSummary {
  html: string;
}

function library(files: Record<string, string>) {
  const bySlug = new Map<string, ArticleSource>();
  for (const [file, source] of Object.entries(files)) {
    const article = parseArticle(source, file);
    if (bySlug.has(article.slug)) throw new Error(`${file}: slug "${article.slug}" is used twice`);
    bySlug.set(article.slug, article);
  }
  // Newest first, then by title: the order the edge's /list answers with.
  const list: ArticleSummary[] = [...bySlug.values()]
    .map(({ body: _body, ...summary }) => summary)
    .sort((a, b) => (a.date === b.date ? a.title.localeCompare(b.title) : a.date < b.date ? 1 : -1));
  return { bySlug, list };
}

const blog = library(blogFiles);
const help = library(helpFiles);
export const categories: HelpCategory[] = helpCategories.categories;

for (const article of [...help.list, ...help.bySlug.values()]) {
  const category = categories.find((c) => c.slug === article.category);
  if (!category) throw new Error(`help article ${article.slug}: unknown category "${article.category}"`);
  // Cards and pages name the category, not its slug.
  article.categoryTitle = category.title;
}

function rendered(article: ArticleSource | undefined): RenderedArticle | undefined {
  if (!article) return undefined;
  const { body, ...summary } = article;
  return { ...summary, html: renderMarkdown(body) };
}

export const blogArticles = (): ArticleSummary[] => blog.list;
export const blogArticle = (slug: string): RenderedArticle | undefined => rendered(blog.bySlug.get(slug));

export const helpArticles = (): ArticleSummary[] => help.list;
export const helpArticle = (slug: string): RenderedArticle | undefined => rendered(help.bySlug.get(slug));
export const helpCategory = (slug: string): HelpCategory | undefined => categories.find((c) => c.slug === slug);
export const helpArticlesIn = (category: string): ArticleSummary[] => help.list.filter((a) => a.category === category);

/** The help categories with their articles, in the categories' order. */
export function helpIndex(): Array<HelpCategory & { articles: ArticleSummary[] }> {
  return categories.map((category) => ({ ...category, articles: helpArticlesIn(category.slug) }));
}

/** A policy page (terms-of-use, privacy-policy, cookie-policy, disclaimer) as HTML, with the company's details filled in. */
export function policy(slug: string): { title: string; description: string; date: string; html: string } | undefined {
  const file = Object.keys(policyFiles).find((f) => f.endsWith(`/${slug}.md`));
  if (!file) return undefined;
  const { fields, body } = parseFrontMatter(policyFiles[file], file);
  const details: Record<string, string> = {
    entity: site.legalName,
    address: site.address.lines.filter((line) => line !== site.legalName).join(", "),
    grievanceOfficer: pagesContent.legal.grievanceOfficer,
  };
  const filled = withSiteSettings(body).replace(/\{(entity|address|grievanceOfficer)\}/g, (_, key: string) => details[key]);
  return { title: fields.title, description: fields.description, date: fields.date, html: renderMarkdown(filled) };
}

/** A link of the content: a route path (to) or an external URL (url). */
export interface ContentLink {
  label: string;
  to?: string;
  url?: string;
}

export interface ContentPlan {
  /** The plan's id in plans.json: its card's anchor is #plan-<id>. */
  id?: string;
  name: string;
  price: string;
  period: string;
  description: string;
  features: string[];
  cta: ContentLink;
  highlighted?: boolean;
  /** The GST line under the price (plans of shared/content/plans.json). */
  note?: string;
}

export interface ContentSection {
  /** Anchor of the section (/help#partner-faq). */
  id?: string;
  heading: string;
  text?: string[];
  items?: Array<{ title: string; text: string; link?: ContentLink }>;
  plans?: ContentPlan[];
  /** "plans": the section shows the plans of shared/content/plans.json. */
  catalogue?: "plans";
  /** Questions and answers; id is the item's anchor (/old-pricing#faq-gst). */
  faqs?: Array<{ id?: string; question: string; answer: string }>;
  /** "<page id>#<section id>": this section is that page's section, shown here too (resolved by contentPage). */
  from?: string;
}

/** A generic content page of pages.json (see its $comment). */
export interface ContentPage {
  eyebrow: string;
  heading: string;
  intro: string;
  ctas?: ContentLink[];
  sections?: ContentSection[];
  list?: "blog" | "help";
  /** "petpawlor": the page shows the add-on's price and a buy button. */
  buy?: "petpawlor";
}

/** Copy of a generic content page by route id, with site settings filled in. */
export function contentPage(id: string): ContentPage | undefined {
  const page = (pagesContent.pages as Record<string, ContentPage>)[id];
  if (!page) return undefined;
  const sections = page.sections?.map(borrowed).map((section) => (section.catalogue === "plans" ? { ...section, plans: cataloguePlans() } : section));
  return withSiteSettings({ ...page, ...(sections && { sections }) });
}

/** A section that names another page's section ({"from": "help#partner-faq"}) is that section; an unknown one is an error. */
function borrowed(section: ContentSection): ContentSection {
  if (!section.from) return section;
  const [pageId, sectionId] = section.from.split("#");
  const source = (pagesContent.pages as Record<string, ContentPage>)[pageId]?.sections?.find((s) => s.id === sectionId);
  if (!source || source.from) throw new Error(`pages.json: section from "${section.from}" names no section`);
  return source;
}

export const contentLabels = pagesContent.labels;

export type ContactContent = typeof contactContent;
export type ContactFieldName = keyof ContactContent["fields"];
export type ContactPageContent = ContactContent["pages"][keyof ContactContent["pages"]];

/** Everything one contact-form page needs: its copy, its fields' rules and the form's messages, settings filled in. */
export function contactPage(topic: string) {
  const page = (contactContent.pages as Record<string, ContactPageContent>)[topic];
  if (!page) return undefined;
  const { pages: _pages, $comment: _comment, ...form } = contactContent;
  return withSiteSettings({ topic, page, form });
}
