// Site-wide content (company facts, footer, newsletter box): its types and
// the {placeholder} filling. The copy itself is in site-content.ts, which only
// the footer's chunk imports.
import type footerJSON from "@omnibus/shared/content/footer.json";
import type newsletterJSON from "@omnibus/shared/content/newsletter.json";
import type siteJSON from "@omnibus/shared/content/site.json";

export type SiteContent = typeof siteJSON;
export type FooterContent = typeof footerJSON;
export type NewsletterContent = typeof newsletterJSON;

/** Values the content's {placeholders} stand for; set on the renderer's environment. */
export interface SiteSettings {
  email: string;
  phone: string;
  scheduleDemoUrl: string;
}

export interface SiteData {
  site: SiteContent;
  footer: FooterContent;
  newsletter: NewsletterContent;
}

const PLACEHOLDER = /\{(email|phone|scheduleDemoUrl)\}/g;

/**
 * A deep copy of content with every {email}, {phone} and {scheduleDemoUrl}
 * replaced, and without the editors' "$comment" notes of the content files:
 * they are never shown, and every byte of loader data is sent twice (markup
 * and hydration data) to visitors on slow networks.
 */
export function fillPlaceholders<T>(content: T, settings: SiteSettings): T {
  if (typeof content === "string") {
    return content.replace(PLACEHOLDER, (_, key: keyof SiteSettings) => settings[key]) as T;
  }
  if (Array.isArray(content)) return content.map((item) => fillPlaceholders(item, settings)) as T;
  if (content && typeof content === "object") {
    return Object.fromEntries(
      Object.entries(content)
        .filter(([key]) => key !== "$comment")
        .map(([key, value]) => [key, fillPlaceholders(value, settings)]),
    ) as T;
  }
  return content;
}

/** An external link (http[s]:, mailto:, tel:) rather than a path of the site. */
export function isExternal(href: string): boolean {
  return /^(https?:|mailto:|tel:)/i.test(href);
}

/** "tel:" href of a phone number as people write it: "+91 80 4000 0000" → "tel:+918040000000". */
export function telHref(phone: string): string {
  return "tel:" + phone.replace(/[^\d+]/g, "");
}
