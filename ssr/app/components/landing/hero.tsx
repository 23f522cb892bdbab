import { FallingStars } from "~/components/stars/falling-stars";
import { Image } from "~/components/ui/image";
import { buttonStyles, SiteLink } from "~/components/ui/site-link";
import { LogoStrip } from "./logo-strip";
import type { LandingContent, LogosContent } from "./types";

export function Hero({ hero, logos }: { hero: LandingContent["hero"]; logos: LogosContent }) {
  const shot = hero.screenshot;
  return (
    <section aria-labelledby="hero-title" className="relative isolate overflow-hidden">
      {/* Glow and falling stars behind the headline. */}
      <div
        aria-hidden="true"
        className="absolute inset-0 -z-10 bg-[radial-gradient(60rem_30rem_at_50%_-5rem,rgba(116,71,250,0.16),transparent),radial-gradient(30rem_20rem_at_90%_20%,rgba(20,184,166,0.10),transparent)] dark:bg-[radial-gradient(60rem_30rem_at_50%_-5rem,rgba(116,71,250,0.35),transparent),radial-gradient(30rem_20rem_at_90%_20%,rgba(20,184,166,0.16),transparent)]"
      />
      <FallingStars className="-z-10" />
      <div className="mx-auto max-w-7xl px-4 pt-16 pb-16 sm:px-6 sm:pt-24 lg:pb-24">
        <div className="mx-auto max-w-4xl text-center">
          <p className="inline-flex items-center gap-2 rounded-full bg-brand-50 px-3 py-1 text-xs font-semibold sm:px-4 sm:py-1.5 sm:text-sm text-brand-700 ring-1 ring-brand-200 dark:bg-brand-400/10 dark:text-brand-200 dark:ring-brand-400/30">
            <span aria-hidden="true" className="size-1.5 rounded-full bg-accent-500" />
            {hero.eyebrow}
          </p>
          <h1 id="hero-title" className="mt-6 text-[2.125rem] leading-tight font-extrabold tracking-tight text-balance text-gray-950 sm:text-5xl lg:text-6xl dark:text-white">
            {hero.title}
          </h1>
          <p className="mt-1 bg-gradient-to-r from-brand-600 to-accent-600 bg-clip-text text-[2.125rem] leading-tight font-extrabold tracking-tight text-balance text-transparent sm:text-5xl lg:text-6xl dark:from-brand-300 dark:to-accent-400">
            {hero.highlight}
          </p>
          <p className="mx-auto mt-6 max-w-2xl text-lg leading-8 text-pretty text-gray-600 dark:text-gray-300">{hero.subtitle}</p>
          <div className="mt-10 flex flex-col items-stretch justify-center gap-4 sm:flex-row sm:items-center">
            <SiteLink to={hero.primary.to} className={buttonStyles.primary}>
              {hero.primary.label}
              <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
                <path d="M4 10h12M11 5l5 5-5 5" />
              </svg>
            </SiteLink>
            <SiteLink url={hero.secondary.url} className={buttonStyles.secondary}>
              {hero.secondary.label}
            </SiteLink>
          </div>
          <p className="mt-4 text-sm text-gray-600 dark:text-gray-400">{hero.note}</p>
        </div>

        <div className="relative mx-auto mt-14 max-w-5xl sm:mt-16">
          {/* A soft glow drawn with gradients (a blur filter would cost a full repaint of this layer). */}
          <div aria-hidden="true" className="absolute -inset-8 -z-10 bg-[radial-gradient(closest-side,rgba(116,71,250,0.22),transparent)]" />
          <div className="rounded-2xl bg-gray-900/5 p-2 ring-1 ring-gray-900/10 sm:p-3 dark:bg-white/5 dark:ring-white/10">
            <Image
              src={shot.src}
              srcSet={shot.srcSet}
              darkSrc={shot.darkSrc}
              darkSrcSet={shot.darkSrcSet}
              alt={shot.alt}
              width={shot.width}
              height={shot.height}
              sizes={shot.sizes}
              className="h-auto w-full rounded-xl shadow-2xl shadow-brand-900/20"
            />
          </div>
        </div>

        <LogoStrip
          title={hero.logosTitle}
          logos={logos.logos}
          width={logos.width}
          height={logos.height}
          limit={hero.logoCount}
          className="mt-14 sm:mt-16"
        />
      </div>
    </section>
  );
}
