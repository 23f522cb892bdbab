// <head> tags of pages whose title comes from their content (articles, help
// topics), and of their not-found state, following lib/meta.ts.
import type { MetaDescriptor } from "react-router";
import { notFound } from "../../../shared/route-table";
import { canonicalPath, pageMeta, publicUrlFrom, twitterSiteFrom } from "./meta";

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
