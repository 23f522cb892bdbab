// <head> tags of pages whose title comes from their content (articles, help
// topics), and of their not-found state, following lib/meta.ts.
import type { MetaDescriptor } from "react-router";
import { notFound } from "@omnibus/shared/route-table";
import { pageMeta, publicUrlFrom, twitterSiteFrom } from "./meta";

interface ContentMetaArgs {
  location: { pathname: string; search?: string };
  matches: Parameters<typeof publicUrlFrom>[0];
}

/** Title and description of a content page, or the not-found page's (noindex) when there is no content. */
export function contentMeta(args: ContentMetaArgs, content: { title: string; description: string } | undefined, preview?: unknown): MetaDescriptor[] {
  const common = { publicUrl: publicUrlFrom(args.matches), pathname: canonicalPath(args.location), twitterSite: twitterSiteFrom(args.matches) };
  if (!content) return pageMeta({ ...common, title: notFound.title, description: notFound.description, noindex: true });
  // A draft on a preview link is never indexed.
  return pageMeta({ ...common, title: content.title, description: content.description, noindex: Boolean(preview) });
}

/**
 * The page's own address for its canonical link: the path, and on a list's
 * older pages their ?page=N (each page of a list is a page of its own, with
 * its own articles: it names itself, not the first page). ?page=1 is the
 * list's own address. Here, not in lib/meta.ts: only the list pages' code
 * carries it.
 */
export function canonicalPath(location: { pathname: string; search?: string }): string {
  const page = Number(new URLSearchParams(location.search ?? "").get("page"));
  return Number.isInteger(page) && page > 1 ? `${location.pathname}?page=${page}` : location.pathname;
}
