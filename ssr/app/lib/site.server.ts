// Server-only: the configured support e-mail, phone and demo-booking link
// (renderer environment). The root loader sends them (not the copy they are
// filled into, which the client has in lib/site.ts).
import footer from "@omnibus/shared/content/footer.json";
import { fillPlaceholders, type SiteData, type SiteSettings } from "./site";
import { siteContent } from "./site-content";

export const DEFAULT_SITE_SETTINGS: SiteSettings = {
  email: "support@omnibus.example",
  phone: "+91 80 4000 0000",
  scheduleDemoUrl: "https://calendly.com/omnibus/demo",
};

/** SUPPORT_EMAIL, SUPPORT_PHONE and SCHEDULE_DEMO_URL, or their defaults. */
export function siteSettings(env: NodeJS.ProcessEnv = process.env): SiteSettings {
  return {
    email: env.SUPPORT_EMAIL?.trim() || DEFAULT_SITE_SETTINGS.email,
    phone: env.SUPPORT_PHONE?.trim() || DEFAULT_SITE_SETTINGS.phone,
    scheduleDemoUrl: env.SCHEDULE_DEMO_URL?.trim() || DEFAULT_SITE_SETTINGS.scheduleDemoUrl,
  };
}

/** Site, footer and newsletter content with the settings filled in. */
export function siteData(settings: SiteSettings = siteSettings()): SiteData {
  return siteContent(settings);
}

/** Any content (e.g. the landing page's) with the settings filled in. */
export function withSiteSettings<T>(content: T): T {
  return fillPlaceholders(content, siteSettings());
}

/**
 * The site's X (Twitter) account as cards credit it (@name), from the
 * footer's social links: read on the server, so the footer's copy stays out
 * of the first page's script (the root loader sends these few bytes).
 */
export function twitterSite(): string {
  const link = footer.socials.find((s) => s.name === "X")?.link;
  const name = link?.match(/^https:\/\/(?:x|twitter)\.com\/([A-Za-z0-9_]{1,15})\/?$/)?.[1];
  return name ? `@${name}` : "";
}
