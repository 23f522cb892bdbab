// The site-wide copy (company facts, footer, newsletter box) is the same on
// every page, so it is part of the footer's JS chunk, which the browser
// downloads once and caches, rather than of every document's loader data,
// which keeps the document small. The root loader sends only the three configured values its
// {placeholders} stand for (site.server.ts); server and client fill them in
// the same way, so hydration matches.
import { useMemo } from "react";
import { useRouteLoaderData } from "react-router";
import footerJSON from "@omnibus/shared/content/footer.json";
import newsletterJSON from "@omnibus/shared/content/newsletter.json";
import siteJSON from "@omnibus/shared/content/site.json";
import { fillPlaceholders, type SiteData, type SiteSettings } from "./site";

/** Site, footer and newsletter content with the settings filled in. */
export function siteContent(settings: SiteSettings): SiteData {
  return fillPlaceholders({ site: siteJSON, footer: footerJSON, newsletter: newsletterJSON }, settings);
}

/** The site content, filled with the settings from the root loader. */
export function useSiteData(): SiteData {
  const settings = (useRouteLoaderData("root") as { settings?: SiteSettings } | undefined)?.settings;
  if (!settings) throw new Error("The root loader did not provide the site settings (siteSettings())");
  return useMemo(() => siteContent(settings), [settings]);
}
