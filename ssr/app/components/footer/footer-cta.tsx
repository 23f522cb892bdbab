import { buttonStyles, SiteLink } from "~/components/ui/site-link";
import type { FooterContent } from "~/lib/site";

/** The call-to-action block above the footer: subtitle, title, two links and the benefits. */
export function FooterCta({ cta }: { cta: FooterContent["cta"] }) {
  const [primary, secondary] = cta.links;
  return (
    <section className="mx-auto max-w-7xl px-4 pt-16 sm:px-6">
      <div className="relative isolate overflow-hidden rounded-3xl bg-brand-950 px-6 py-12 text-white shadow-xl sm:px-12 lg:flex lg:items-center lg:gap-12 lg:py-14">
        <div
          aria-hidden="true"
          className="absolute inset-0 -z-10 bg-[radial-gradient(40rem_20rem_at_85%_0%,rgba(45,212,191,0.35),transparent),radial-gradient(40rem_24rem_at_0%_100%,rgba(116,71,250,0.6),transparent)]"
        />
        <div className="lg:flex-1">
          <p className="text-sm font-semibold text-accent-400">{cta.subtitle}</p>
          <h2 className="mt-2 text-3xl font-bold tracking-tight text-balance sm:text-4xl">
            {cta.title}
          </h2>
          <div className="mt-8 flex flex-wrap gap-4">
            <SiteLink to={primary.to} className={`${buttonStyles.primary} bg-white! text-brand-800! hover:bg-brand-50!`}>
              {primary.label}
            </SiteLink>
            <SiteLink to={secondary.to} className={`${buttonStyles.secondary} bg-white/10! text-white! ring-white/30!`}>
              {secondary.label}
            </SiteLink>
          </div>
        </div>
        <ul className="mt-10 grid gap-4 text-sm sm:grid-cols-2 lg:mt-0 lg:w-[26rem] lg:grid-cols-1">
          {cta.benefits.map((benefit) => (
            <li key={benefit.label} className="flex gap-3">
              <svg aria-hidden="true" viewBox="0 0 20 20" className="mt-0.5 size-5 flex-none text-accent-400" fill="currentColor">
                <path fillRule="evenodd" d="M10 18a8 8 0 1 0 0-16 8 8 0 0 0 0 16zm3.7-9.3a1 1 0 0 0-1.4-1.4L9 10.6 7.7 9.3a1 1 0 0 0-1.4 1.4l2 2a1 1 0 0 0 1.4 0z" />
              </svg>
              <span className="text-white/90">{benefit.label}</span>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
