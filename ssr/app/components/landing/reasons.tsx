import { buttonStyles, SiteLink } from "~/components/ui/site-link";
import type { LandingContent } from "./types";
import { SectionHeading } from "./section-heading";

/** Three reasons to move to Omnibus, with 'Create Store' and 'Schedule Demo'. */
export function Reasons({ reasons }: { reasons: LandingContent["reasons"] }) {
  return (
    <section id={reasons.id} aria-labelledby="reasons-title" className="py-20 sm:py-28">
      <div className="mx-auto max-w-7xl px-4 sm:px-6">
        <SectionHeading titleId="reasons-title" eyebrow={reasons.eyebrow} title={reasons.title} />
        <ol className="mt-14 grid gap-8 md:grid-cols-3">
          {reasons.items.map((item) => (
            <li key={item.number} className="relative border-t-2 border-brand-500 pt-6">
              <span aria-hidden="true" className="font-mono text-sm font-semibold text-brand-700 dark:text-brand-300">
                {item.number}
              </span>
              <h3 className="mt-3 text-xl font-semibold text-gray-950 dark:text-white">{item.title}</h3>
              <p className="mt-3 leading-7 text-gray-600 dark:text-gray-300">{item.text}</p>
            </li>
          ))}
        </ol>
        <div className="mt-12 flex flex-col gap-4 sm:flex-row">
          <SiteLink to={reasons.primary.to} className={buttonStyles.primary}>
            {reasons.primary.label}
          </SiteLink>
          <SiteLink url={reasons.secondary.url} className={buttonStyles.secondary}>
            {reasons.secondary.label}
          </SiteLink>
        </div>
      </div>
    </section>
  );
}
