// Server-only: the content a page shows and the generic content pages.
// Articles, help topics and their categories and policies live in the
// edge's content store: the edge sends what a page shows with its page
// request, in the content header of shared/http.json (base64url JSON; edge
// edge/internal/content PageData, docs/studio-api.md), its Markdown already
// rendered and sanitised. The renderer bundles no article and never calls
// the edge: no header, no content (the page is the not-found page).
import contactContent from "@omnibus/shared/content/contact.json";
import pagesContent from "@omnibus/shared/content/pages.json";
import site from "@omnibus/shared/content/site.json";
import { cataloguePlans } from "./plans";

export { cataloguePlans };
import type { ArticleSummary } from "./front-matter";
import { CONTENT_HEADER } from "./http-names";
import { log } from "./log.server";
import { withSiteSettings } from "./site.server";

export type { ArticleSummary };
export interface HelpCategory {
  slug: string;
  title: string;
  description: string;
  /** The category page's introduction (plain text; help-category items' intro field). */
  intro?: string;
}

/** An article ready to show: its front matter and its body as HTML. */
export interface RenderedArticle extends ArticleSummary {
  html: string;
}

/** A policy page as HTML. */
export interface PolicyPage {
  slug?: string;
  title: string;
  description: string;
  date: string;
  html: string;
}

/** What the edge sends a content page (docs/studio-api.md). */
export interface PageContent {
  /** On a preview link: the page draws the "not published" banner and is noindex. */
  preview?: { expiresAt: string };
  article?: RenderedArticle;
  policy?: PolicyPage;
  category?: HelpCategory;
  articles?: ArticleSummary[];
  categories?: Array<HelpCategory & { articles: ArticleSummary[] }>;
  /** The lists were cut to fit the header. */
  more?: boolean;
  /** The preview card the edge keeps for this article's or topic's words (/media/og/<key>.jpg, 1200×630), once drawn. */
  card?: string;
  /** A list page's page (1: the newest) of pages: ?page=N (edge content.PageParam). */
  page?: number;
  pages?: number;
}

/** The page's content from the edge's header; {} when there is none or it is unreadable. */
export function pageContent(request: Request): PageContent {
  const raw = request.headers.get(CONTENT_HEADER);
  if (!raw) return {};
  try {
    const value: unknown = JSON.parse(Buffer.from(raw, "base64url").toString("utf8"));
    return value && typeof value === "object" ? (value as PageContent) : {};
  } catch {
    log.warn(`${CONTENT_HEADER}: not base64url JSON; the page renders without its content`);
    return {};
  }
}

/** The page's header encoded as the edge sends it (tests, tools). */
export function encodePageContent(content: PageContent): string {
  return Buffer.from(JSON.stringify(content), "utf8").toString("base64url");
}

export const blogArticles = (request: Request): ArticleSummary[] => pageContent(request).articles ?? [];
export const blogArticle = (request: Request, slug: string): RenderedArticle | undefined => {
  const a = pageContent(request).article;
  return a && a.slug === slug ? a : undefined;
};

/** Which page of its list a list page shows, of how many (1 of 1 without a list). */
export function listPage(request: Request): { page: number; pages: number } {
  const { page = 1, pages = 1 } = pageContent(request);
  return { page, pages };
}

export const helpArticles = (request: Request): ArticleSummary[] => pageContent(request).articles ?? [];
export const helpArticle = blogArticle;
export const helpCategory = (request: Request, slug: string): HelpCategory | undefined => {
  const c = pageContent(request).category;
  return c && c.slug === slug ? c : undefined;
};
export const helpArticlesIn = (request: Request, category: string): ArticleSummary[] => (pageContent(request).articles ?? []).filter((a) => a.category === category);

/** The help categories with their articles, in the categories' order. */
export function helpIndex(request: Request): Array<HelpCategory & { articles: ArticleSummary[] }> {
  return pageContent(request).categories ?? [];
}

const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** A policy page (terms-of-use, privacy-policy, cookie-policy, disclaimer) as HTML, with the company's details and the site settings filled in. */
export function policy(request: Request, slug: string): PolicyPage | undefined {
  const page = pageContent(request).policy;
  if (!page || (page.slug && page.slug !== slug)) return undefined;
  return { ...page, html: fillPolicy(page.html) };
}

/** The company's details ({entity}, {address}, {grievanceOfficer}) and the site settings ({email}, ...) in a policy's HTML, escaped. */
export function fillPolicy(html: string): string {
  const details: Record<string, string> = {
    entity: site.legalName,
    address: site.address.lines.filter((line) => line !== site.legalName).join(", "),
    grievanceOfficer: pagesContent.legal.grievanceOfficer,
  };
  const filled = html.replace(/\{(entity|address|grievanceOfficer)\}/g, (_, key: string) => escapeHtml(details[key]));
  return withSiteSettings(filled);
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
