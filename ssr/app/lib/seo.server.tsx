// Server only: what crawlers and link previews read beyond a page's title and
// description (lib/meta.ts): its preview image (og:image, twitter:image, drawn
// at build time by scripts/og-images.mjs, or for a published article's words
// when the edge asked: lib/og-card.server.ts), og:type with an article's dates and
// section, the blog's feeds (<link rel="alternate">) and its schema.org
// JSON-LD (structured-data.server.ts). entry.server.tsx hands seoHead()'s
// parts to root.tsx's <ServerHead> (in <head>) and <ServerBodyEnd> (the
// JSON-LD, last in <body>: Google reads it anywhere, and the first paint waits
// for none of it); the browser's build has none of this: hydration passes
// over these elements as it does over the critical <style>.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ReactElement } from "react";
import footer from "@omnibus/shared/content/footer.json";
import pagesContent from "@omnibus/shared/content/pages.json";
import site from "@omnibus/shared/content/site.json";
import { routes, type RouteEntry } from "@omnibus/shared/route-table";
import { DEFAULT_PUBLIC_URL, LOCALE } from "./constants";
import { contentPage, type ContentSection, type PageContent } from "./content.server";
import { addons, charge, plans, type CataloguePlan } from "./plans";
import { article, breadcrumbList, faqPage, jsonLdText, organization, product, webSite, type JsonLd } from "./structured-data.server";

/** The blog's feeds, served by the edge (edge/internal/seo/feeds.go: RSSPath, AtomPath). */
export const FEEDS = [
  { type: "application/rss+xml", path: "/rss.xml", title: "Omnibus blog (RSS)" },
  { type: "application/atom+xml", path: "/atom.xml", title: "Omnibus blog (Atom)" },
] as const;

/** The help centre's feeds (feeds.go: HelpRSSPath, HelpAtomPath). */
export const HELP_FEEDS = [
  { type: "application/rss+xml", path: "/help/rss.xml", title: "Omnibus help centre (RSS)" },
  { type: "application/atom+xml", path: "/help/atom.xml", title: "Omnibus help centre (Atom)" },
] as const;

/** The feeds a page announces: the blog's on the blog and its articles, the help centre's on its pages. */
function feedsOf(page: SeoPage) {
  if (page.path === "/blog" || page.routeId === "blog-article") return FEEDS;
  if (page.path === "/help" || page.path === "/help-centre" || page.routeId === "help-category" || page.routeId === "help-article") return HELP_FEEDS;
  return [];
}

/** A page as crawlers and previews see it. */
export interface SeoPage {
  path: string;
  /** The page's own title, without the site's name. */
  title: string;
  description: string;
  /** Where the page belongs (blog, help centre, features, pricing...), drawn on its preview; "" for the home page. */
  section: string;
  type: "website" | "article";
  /** Articles: the date the page shows (YYYY-MM-DD), the day it was last revised (front matter's updated:, when set) and their category's name. */
  date?: string;
  updated?: string;
  category?: string;
  /** The trail from the home page (names and paths), ending with this page. */
  crumbs: Array<{ name: string; path: string }>;
  /** The page's route id (the article routes' for articles). */
  routeId: string;
  /** A content page's preview card the edge drew for its words (PageContent's card), when it has one. */
  card?: string;
}

const SITE = site.name;

/** The canonical origin (PUBLIC_URL), as the root loader gives it to the pages. */
export const publicUrl = () => (process.env.PUBLIC_URL || DEFAULT_PUBLIC_URL).replace(/\/+$/, "");
const pages = pagesContent.pages as Record<string, { eyebrow?: string }>;

/** "Partner with us — Omnibus" → "Partner with us"; the home page's "Omnibus — Sell …" → "Sell …". */
export function ownTitle(title: string): string {
  return title.replace(new RegExp(` — ${SITE}( Help)?$`), "").replace(new RegExp(`^${SITE} — `), "");
}

const MODULE_SECTION: Record<string, string> = {
  "_marketing/features.tsx": "Features",
  "_marketing/contact.tsx": "Contact",
  "_marketing/policy.tsx": "Legal",
  "_auth/": "Account",
  "_journey/": "Account",
};

function sectionOf(entry: RouteEntry): string {
  if (entry.id === "home") return "";
  if (entry.path.startsWith("/blog")) return "Blog";
  if (entry.path.startsWith("/help")) return "Help centre";
  const eyebrow = pages[entry.id]?.eyebrow;
  if (eyebrow) return eyebrow;
  const key = Object.keys(MODULE_SECTION).find((m) => entry.module === m || (m.endsWith("/") && entry.module.startsWith(m)));
  return key ? MODULE_SECTION[key] : SITE;
}

const byId = (id: string) => routes.find((r) => r.id === id);
const crumb = (id: string) => {
  const entry = byId(id);
  if (!entry) throw new Error(`seo: no route ${id}`);
  return { name: ownTitle(entry.title), path: entry.path };
};

let memo: Map<string, SeoPage> | undefined;

/**
 * Every page of the route table with a preview image: its pages without
 * parameters (the template demos, under _blocks/, and the transactional
 * pages, noindex, excepted). The articles, help topics and help articles
 * live in the edge's content store: their pages are made from the content
 * their page request carries (contentSeoPage).
 */
export function seoPages(): SeoPage[] {
  return [...pageMap().values()];
}

/** The SEO page of an article, help topic or help article, from the content the edge sent with its page request. */
export function contentSeoPage(pathname: string, content: PageContent): SeoPage | undefined {
  const home = { name: SITE, path: "/" };
  const path = pathname.replace(/(.)\/+$/, "$1");
  const a = content.article;
  if (a && path === `/blog/article/${a.slug}`) {
    return { path, title: a.title, description: a.description, section: "Blog", type: "article", date: a.date, updated: a.updated, category: a.category, crumbs: [home, crumb("blog"), { name: a.title, path }], routeId: "blog-article", card: content.card };
  }
  const c = content.category;
  if (a && c && path === `/help/category/article/${a.slug}`) {
    const cat = { name: c.title, path: `/help/category/${c.slug}` };
    return { path, title: a.title, description: a.description, section: "Help centre", type: "article", date: a.date, updated: a.updated, category: cat.name, crumbs: [home, crumb("help-centre"), cat, { name: a.title, path }], routeId: "help-article", card: content.card };
  }
  if (c && path === `/help/category/${c.slug}`) {
    return { path, title: c.title, description: c.description, section: "Help centre", type: "website", crumbs: [home, crumb("help-centre"), { name: c.title, path }], routeId: "help-category", card: content.card };
  }
  return undefined;
}

function pageMap(): Map<string, SeoPage> {
  if (memo) return memo;
  const home = { name: SITE, path: "/" };
  const list: SeoPage[] = [];
  for (const entry of routes) {
    if (/[:*]/.test(entry.path) || entry.module.startsWith("_blocks/") || entry.noindex) continue;
    const title = ownTitle(entry.title);
    list.push({
      path: entry.path,
      title,
      description: entry.description,
      section: sectionOf(entry),
      type: "website",
      crumbs: entry.id === "home" ? [home] : [home, { name: title, path: entry.path }],
      routeId: entry.id,
    });
  }
  memo = new Map(list.map((p) => [p.path, p]));
  return memo;
}

/** The page at pathname (trailing slashes ignored), or undefined for any other path. */
export function seoPage(pathname: string, content?: PageContent): SeoPage | undefined {
  return pageMap().get(pathname.replace(/(.)\/+$/, "$1")) ?? (content && contentSeoPage(pathname, content));
}

// The preview images the build drew (scripts/og-images.mjs writes
// build/server/og-images.json beside the server build: path → /assets/og/…-<hash>.jpg).
// Without it (vitest, dev), the site's generic card. A content page whose
// words the edge has a card for (drawn when they were published, decision
// 0066) names that card instead.
let images: Record<string, string> | undefined;
/**
 * The key of an article's drawn preview in og-images.json: its path and the
 * words its card shows, so a retitled article never shows its old words.
 */
export const articleImageKey = (page: Pick<SeoPage, "path" | "title" | "description" | "section">) =>
  `${page.path}|${page.section}|${page.title}|${page.description}`;

function imageOf(page: Pick<SeoPage, "path" | "title" | "description" | "section" | "card">): { src: string; width: number; height: number } {
  // The card the edge drew for the live words comes first: it follows a retitled or new article.
  if (page.card && /^\/media\/og\/[0-9a-f]+\.jpg$/.test(page.card)) return { src: page.card, ...OG_IMAGE_SIZE };
  const pagePath = page.path;
  if (!images) {
    // This module is bundled into build/server/index.js or one of its chunks in build/server/assets/.
    const here = path.dirname(fileURLToPath(import.meta.url));
    const file = [path.join(here, "og-images.json"), path.join(here, "..", "og-images.json")].find((f) => existsSync(f));
    images = file ? (JSON.parse(readFileSync(file, "utf8")) as Record<string, string>) : {};
  }
  const src = images[pagePath] ?? images[articleImageKey(page)];
  return src ? { src, ...OG_IMAGE_SIZE } : SOCIAL_IMAGE;
}

/**
 * Who writes the articles: the company, whose page is /about. Open Graph's
 * article:author is a profile URL and Google's Article author.url "a page
 * that uniquely identifies the author": both name that page.
 */
export const authorUrl = (publicUrl: string) => publicUrl + crumb("about").path;

/** The site's generic preview card (site.json's socialCard), for a page the build drew none for. */
const SOCIAL_IMAGE = { src: site.socialCard.src, width: site.socialCard.width, height: site.socialCard.height };

/** The preview images' size (scripts/og-images.mjs draws them at it). */
export const OG_IMAGE_SIZE = { width: 1200, height: 630 };

/** Whether the preview names the page's section above its title: not when they are the same word ("Pricing", "Features"). */
export const showsSection = (page: Pick<SeoPage, "section" | "title">) => page.section !== "" && page.section.toLowerCase() !== page.title.toLowerCase();

/** The preview image's text alternative: what it says. */
export const imageAlt = (page: SeoPage) => (showsSection(page) ? `${page.section}: ${page.title}` : `${SITE}: ${page.title}`);

/** Rupees with two decimals, as schema.org prices are written ("21225.84"). */
const rupees = (paise: number) => (paise / 100).toFixed(2);

function planProduct(p: { name: string; description: string; monthlyPaise: number; billingMonths: number }, url: string, image: string): JsonLd {
  const { total } = charge(p.monthlyPaise, p.billingMonths);
  return product({ name: p.name, description: p.description, image, brand: SITE, url, currency: "INR", priceWithGst: rupees(total), monthlyPrice: rupees(p.monthlyPaise), billingMonths: p.billingMonths });
}

/** Sections whose questions another page borrows ({"from": "help#partner-faq"}): marked up there, not twice. */
const borrowedElsewhere = new Set(
  Object.values(pagesContent.pages as Record<string, { sections?: ContentSection[] }>).flatMap((p) => (p.sections ?? []).flatMap((s) => (s.from ? [s.from.split("#")[1]] : []))),
);

/** The page's JSON-LD objects. */
export function structuredData(page: SeoPage, publicUrl: string): JsonLd[] {
  const url = publicUrl + page.path;
  const image = publicUrl + imageOf(page).src;
  const out: JsonLd[] = [];
  if (page.routeId === "home") {
    out.push(
      organization({
        url: publicUrl,
        name: SITE,
        legalName: site.legalName,
        logo: publicUrl + site.logo.large,
        address: site.address.postal,
        sameAs: footer.socials.map((s) => s.link),
      }),
      webSite({ url: publicUrl, name: SITE, description: page.description, inLanguage: LOCALE }),
    );
    return out;
  }
  out.push(breadcrumbList(page.crumbs.map((c) => ({ name: c.name, url: publicUrl + c.path }))));
  if (page.type === "article" && page.date) {
    out.push(
      article({
        type: page.routeId === "blog-article" ? "BlogPosting" : "Article",
        url,
        headline: page.title,
        description: page.description,
        datePublished: page.date,
        dateModified: page.updated ?? page.date,
        section: page.category ?? page.section,
        image,
        inLanguage: LOCALE,
        author: { name: SITE, url: authorUrl(publicUrl) },
        publisher: { name: SITE, url: `${publicUrl}/`, logo: publicUrl + site.logo.large },
      }),
    );
  }
  const content = contentPage(page.routeId);
  // Its own sections' questions and those it borrows, but not those another page borrows from it.
  const own = (pagesContent.pages as Record<string, { sections?: ContentSection[] }>)[page.routeId]?.sections ?? [];
  const faqs = (content?.sections ?? []).filter((s, i) => own[i]?.from || !(s.id && borrowedElsewhere.has(s.id))).flatMap((s) => s.faqs ?? []);
  if (faqs.length > 0) out.push(faqPage(faqs));
  if (content?.sections?.some((s) => s.catalogue === "plans")) {
    for (const plan of plans.filter((p): p is CataloguePlan & { monthlyPaise: number } => p.monthlyPaise !== null)) {
      out.push(planProduct(plan, url, image));
    }
  }
  if (content?.buy === "petpawlor") {
    const addon = addons.find((a) => a.id === "petpawlor");
    if (addon) out.push(planProduct(addon, url, image));
  }
  return out;
}

/** The generic card's text alternative: what its image says (scripts/og-images.mjs --generic draws the headline). */
const SOCIAL_IMAGE_ALT = `${SITE}: ${site.socialCard.headline}`;

/**
 * A page of the route table that has no preview of its own (the template
 * demos under _blocks/, the noindex transactional and sign-in steps): a
 * website with the site's generic card, so that a pasted link still shows a
 * whole card (twitter:card says summary_large_image on every page). No
 * JSON-LD: these pages are kept out of search.
 */
function plainPage(pathname: string): RouteEntry | undefined {
  const p = pathname.replace(/(.)\/+$/, "$1");
  return routes.find((r) => r.path === p);
}

/** og:image with its type, size and alt, and twitter:image. */
function imageTags(src: string, size: { width: number; height: number }, alt: string, publicUrl: string): ReactElement {
  const url = publicUrl + src;
  return (
    <>
      <meta property="og:image" content={url} />
      <meta property="og:image:type" content={src.endsWith(".png") ? "image/png" : "image/jpeg"} />
      <meta property="og:image:width" content={String(size.width)} />
      <meta property="og:image:height" content={String(size.height)} />
      <meta property="og:image:alt" content={alt} />
      <meta name="twitter:image" content={url} />
      <meta name="twitter:image:alt" content={alt} />
    </>
  );
}

/**
 * What only the server writes of the page at pathname: <head> elements
 * (og:type with article:* for articles, the preview image, the blog's feed
 * links) and the JSON-LD for the end of <body>. Any other page of the route
 * table gets og:type and the generic card (plainPage), without JSON-LD.
 * null for a path that is no page of the site (entry.server.tsx asks only
 * for pages that answer 200).
 */
export function seoHead(pathname: string, publicUrl: string, content?: PageContent): { head: ReactElement; body: ReactElement | null } | null {
  const page = seoPage(pathname, content);
  if (!page) {
    if (!plainPage(pathname)) return null;
    const head = (
      <>
        <meta property="og:type" content="website" />
        {imageTags(SOCIAL_IMAGE.src, SOCIAL_IMAGE, SOCIAL_IMAGE_ALT, publicUrl)}
      </>
    );
    return { head, body: null };
  }
  return pageSeo(page, publicUrl);
}

/** seoHead's parts for one of seoPages(). */
export function pageSeo(page: SeoPage, publicUrl: string): { head: ReactElement; body: ReactElement } {
  const image = imageOf(page);
  const drawn = image.src !== SOCIAL_IMAGE.src;
  const feeds = feedsOf(page);
  const head = (
    <>
      <meta property="og:type" content={page.type} />
      {page.type === "article" && page.date ? (
        <>
          <meta property="article:published_time" content={page.date} />
          <meta property="article:modified_time" content={page.updated ?? page.date} />
          <meta property="article:section" content={page.category ?? page.section} />
          <meta property="article:author" content={authorUrl(publicUrl)} />
        </>
      ) : null}
      {imageTags(image.src, image, drawn ? imageAlt(page) : SOCIAL_IMAGE_ALT, publicUrl)}
      {feeds.map((f) => (
        <link key={f.path} rel="alternate" type={f.type} title={f.title} href={publicUrl + f.path} />
      ))}
    </>
  );
  const body = <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonLdText(structuredData(page, publicUrl)) }} />;
  return { head, body };
}
