// Server-only: the configured support e-mail, phone and demo-booking link
// (renderer environment), filled into the site content the root loader sends.
import footer from "../../../shared/content/footer.json";
import newsletter from "../../../shared/content/newsletter.json";
import site from "../../../shared/content/site.json";
import { fillPlaceholders, type SiteData, type SiteSettings } from "./site";

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
  return fillPlaceholders({ site, footer, newsletter }, settings);
}

/** Any content (e.g. the landing page's) with the settings filled in. */
export function withSiteSettings<T>(content: T): T {
  return fillPlaceholders(content, siteSettings());
}
