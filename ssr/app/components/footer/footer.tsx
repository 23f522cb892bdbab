// The site footer (SPEC §2 Footer, §3 footer content): an optional
// call-to-action block, the logo with text, the address and support contacts,
// link columns, the newsletter box, social links, inline policy links and the
// copyright line. All words come from shared/content (footer.json, site.json)
// (lib/site-content.ts, in this chunk) with the configured e-mail, phone and
// demo link from the root loader. Layouts show it as an island (footer-island.tsx).
import { useEffect, useState, type CSSProperties } from "react";
import { NewsletterBox } from "~/components/newsletter/newsletter-box";
import { SiteLink } from "~/components/ui/site-link";
import { telHref } from "~/lib/site";
import { useSiteData } from "~/lib/site-content";
import { FooterCta } from "./footer-cta";

export interface FooterProps {
  /** The call-to-action block above the footer (SPEC §2: optional). */
  showCta?: boolean;
  /** Anchor of its newsletter box and name of its link navigation: unique per page (the catalogue shows extra footers). */
  newsletterId?: string;
  navLabel?: string;
}

export function Footer({ showCta = true, newsletterId = "newsletter", navLabel = "Footer" }: FooterProps) {
  // The social icons are masks: an inline url() is fetched with the document's
  // style, wherever the footer is (5 requests, 4.1 KB of a first visit of /). The server writes the url as a variable nothing reads where
  // scripts run; the footer is an island whose code loads as it nears the
  // viewport or at the first interaction (lib/island.tsx), and once mounted
  // it draws them. Without JavaScript a (scripting: none) rule draws them.
  const [iconsNear, setIconsNear] = useState(false);
  useEffect(() => setIconsNear(true), []);
  const { site, footer } = useSiteData();
  return (
    <footer className="border-t border-gray-200 bg-gray-50 text-gray-600 dark:border-white/10 dark:bg-gray-900/40 dark:text-gray-300">
      {showCta && <FooterCta cta={footer.cta} />}
      <div className="mx-auto max-w-7xl px-4 pt-14 pb-10 sm:px-6">
        <div className="grid grid-cols-1 gap-10 lg:grid-cols-[1fr_1.1fr] lg:gap-16">
          <div>
            <SiteLink to="/" className="inline-flex items-center gap-3 text-xl font-bold tracking-tight text-gray-900 dark:text-white">
              <img src={site.logo.src} alt={site.logo.alt} width={site.logo.width} height={site.logo.height} loading="lazy" className="size-10" />
              {site.name}
            </SiteLink>
            <p className="mt-4 max-w-md text-sm leading-6">{site.tagline}</p>
            <div className="mt-6 grid gap-6 text-sm sm:grid-cols-2">
              <address className="not-italic leading-6">
                <span className="block font-semibold text-gray-900 dark:text-white">{site.address.label}</span>
                {site.address.lines.map((line) => (
                  <span key={line} className="block">
                    {line}
                  </span>
                ))}
              </address>
              <dl className="leading-6">
                <dt className="font-semibold text-gray-900 dark:text-white">{site.support.emailLabel}</dt>
                <dd>
                  <a href={`mailto:${site.support.email}`} className="underline-offset-4 hover:text-brand-700 hover:underline dark:hover:text-brand-300">
                    {site.support.email}
                  </a>
                </dd>
                <dt className="mt-2 font-semibold text-gray-900 dark:text-white">{site.support.phoneLabel}</dt>
                <dd>
                  <a href={telHref(site.support.phone)} className="underline-offset-4 hover:text-brand-700 hover:underline dark:hover:text-brand-300">
                    {site.support.phone}
                  </a>
                </dd>
                <dd className="text-xs text-gray-500 dark:text-gray-400">{site.support.hours}</dd>
              </dl>
            </div>
          </div>
          <NewsletterBox id={newsletterId} />
        </div>

        <nav aria-label={navLabel} className="mt-12 grid grid-cols-2 gap-8 border-t border-gray-200 pt-10 sm:grid-cols-4 dark:border-white/10">
          {footer.columns.map((column) => (
            <div key={column.title}>
              <h2 className="text-sm font-semibold text-gray-900 dark:text-white">{column.title}</h2>
              <ul className="mt-4 space-y-3 text-sm">
                {column.links.map((link) => (
                  <li key={link.label}>
                    <SiteLink
                      to={"to" in link ? link.to : undefined}
                      url={"url" in link ? link.url : undefined}
                      className="hover:text-brand-700 dark:hover:text-brand-300"
                    >
                      {link.label}
                    </SiteLink>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </nav>

        <div className="mt-12 flex flex-col gap-6 border-t border-gray-200 pt-8 text-sm md:flex-row md:items-center md:justify-between dark:border-white/10">
          <p>
            © {footer.copyright} {site.legalName}
          </p>
          <ul aria-label="Policies" className="flex flex-wrap gap-x-6 gap-y-2">
            {footer.links.map((link) => (
              <li key={link.to}>
                <SiteLink to={link.to} className="hover:text-brand-700 dark:hover:text-brand-300">
                  {link.label}
                </SiteLink>
              </li>
            ))}
          </ul>
          <ul aria-label="Social media" className="flex gap-2">
            {footer.socials.map((social) => (
              <li key={social.name}>
                <a
                  href={social.link}
                  aria-label={social.name}
                  title={social.name}
                  className="grid size-10 place-items-center rounded-full text-gray-500 transition hover:bg-gray-200 hover:text-gray-900 dark:text-gray-400 dark:hover:bg-white/10 dark:hover:text-white"
                >
                  {/* The icon file is a mask (its alpha): it takes the link's colour in both themes. */}
                  <span
                    aria-hidden="true"
                    className={`size-5 [mask-position:center] [mask-repeat:no-repeat] [mask-size:contain] ${iconsNear ? "bg-current" : "[@media(scripting:none)]:bg-current [@media(scripting:none)]:[mask-image:var(--icon)]"}`}
                    style={iconsNear ? { maskImage: `url(${social.icon})`, WebkitMaskImage: `url(${social.icon})` } : ({ "--icon": `url(${social.icon})` } as CSSProperties)}
                  />
                </a>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </footer>
  );
}
