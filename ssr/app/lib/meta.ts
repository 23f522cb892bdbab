// <head> tags of a page, from its route-table entry: title, description,
// canonical link and the Open Graph / Twitter card's words. The tags only the
// first HTML needs (og:type, the preview image, article dates, JSON-LD) are
// the server's: lib/seo.server.tsx, so the browser's build carries none of it.
import type { MetaDescriptor } from "react-router";
import { notFound } from "@omnibus/shared/route-table";
import { DEFAULT_PUBLIC_URL, LOCALE } from "./constants";
import { pageEntry } from "./route-entry";

export interface PageMetaInput {
  title: string;
  description: string;
  /** Canonical origin (PUBLIC_URL), from the root loader so server and client agree. */
  publicUrl: string;
  pathname: string;
  /** Pages that must not be indexed (not-found, the template demos). They get no canonical link. */
  noindex?: boolean;
  /** The site's X account (@name) cards credit, from the root loader (lib/site.server.ts twitterSite). */
  twitterSite?: string;
}

/** Open Graph's spelling of the page language (en-US → en_US). */
export const OG_LOCALE = LOCALE.replace("-", "_");


/** Characters of a title search results show before cutting it. */
export const TITLE_BUDGET = 60;

/**
 * The title as search results can show it whole: the site's name after the
 * last " — " is dropped when the whole would pass the budget ("A long
 * article title — Omnibus Blog" → "A long article title"). A title still
 * past it is the content's to shorten (the crawler test names it).
 */
export function fitTitle(title: string): string {
  return title.length > TITLE_BUDGET && title.includes(" — ") ? title.slice(0, title.lastIndexOf(" — ")) : title;
}

export function pageMeta({ title: full, description, publicUrl, pathname, noindex = false, twitterSite }: PageMetaInput): MetaDescriptor[] {
  const url = publicUrl + pathname;
  const title = fitTitle(full);
  return [
    { title },
    { name: "description", content: description },
    // An indexable page lets search show its preview image large (Google's
    // Discover and image results crop to a thumbnail otherwise).
    noindex ? { name: "robots", content: "noindex" } : { name: "robots", content: "max-image-preview:large" },
    ...(noindex ? [] : [{ tagName: "link", rel: "canonical", href: url }]),
    { property: "og:site_name", content: "Omnibus" },
    { property: "og:locale", content: OG_LOCALE },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
    { name: "twitter:card", content: "summary_large_image" },
    ...(twitterSite ? [{ name: "twitter:site", content: twitterSite }] : []),
    { name: "twitter:title", content: title },
    { name: "twitter:description", content: description },
  ];
}

interface MetaArgsLike {
  location: { pathname: string };
  matches: ReadonlyArray<{ id: string; loaderData?: unknown; handle?: unknown } | undefined>;
}

/** The canonical origin, from the root loader's data. */
export function publicUrlFrom(matches: MetaArgsLike["matches"]): string {
  const root = matches.find((match) => match?.id === "root")?.loaderData as { publicUrl?: string } | undefined;
  return root?.publicUrl ?? DEFAULT_PUBLIC_URL;
}

/** The site's X account, from the root loader's data (none when the footer names none). */
export function twitterSiteFrom(matches: MetaArgsLike["matches"]): string | undefined {
  const root = matches.find((match) => match?.id === "root")?.loaderData as { twitterSite?: string } | undefined;
  return root?.twitterSite || undefined;
}

/** The template demo pages (route modules under _blocks/): component showcases, kept out of search (and the sitemap). */
export function isDemoRoute(module: string): boolean {
  return module.startsWith("_blocks/");
}

/**
 * `export const meta = routeMeta;` in a route module: tags from the table
 * entry of the matched route, its words from the module's handle
 * (`export const handle = { routeCopy };`, lib/route-entry.ts). (React
 * Router uses only the deepest route's meta, so every page module exports one.)
 */
export function routeMeta({ location, matches }: MetaArgsLike): MetaDescriptor[] {
  const entry = pageEntry(matches[matches.length - 1]);
  return pageMeta({
    title: entry.title,
    description: entry.description,
    publicUrl: publicUrlFrom(matches),
    twitterSite: twitterSiteFrom(matches),
    pathname: location.pathname,
    noindex: entry.noindex || entry.id === notFound.id || isDemoRoute(entry.module),
  });
}
