import { SiteLink } from "~/components/ui/site-link";
import type { LandingContent } from "./types";

/** A customer's words and numbers, linking to the full success-story help article. */
export function SuccessStory({ story }: { story: LandingContent["story"] }) {
  return (
    <section aria-labelledby="story-title" className="bg-brand-50/60 py-20 sm:py-24 dark:bg-white/[0.03]">
      <div className="mx-auto grid max-w-7xl grid-cols-1 gap-12 px-4 sm:px-6 lg:grid-cols-[1.3fr_1fr] lg:items-center">
        <figure>
          <h2 id="story-title" className="text-sm font-semibold tracking-wide text-brand-700 uppercase dark:text-brand-300">
            {story.eyebrow}
          </h2>
          <blockquote className="mt-6 text-2xl leading-9 font-medium tracking-tight text-pretty text-gray-950 sm:text-3xl sm:leading-11 dark:text-white">
            <p>“{story.quote}”</p>
          </blockquote>
          <figcaption className="mt-8 flex items-center gap-4">
            <span aria-hidden="true" className="grid size-12 place-items-center rounded-full bg-gradient-to-br from-brand-500 to-accent-500 text-lg font-bold text-white">
              {story.author.charAt(0)}
            </span>
            <span>
              <span className="block font-semibold text-gray-950 dark:text-white">{story.author}</span>
              <span className="block text-sm text-gray-600 dark:text-gray-300">{story.role}</span>
            </span>
          </figcaption>
        </figure>
        <div>
          <dl className="grid gap-4 sm:grid-cols-3 lg:grid-cols-1">
            {story.stats.map((stat) => (
              <div key={stat.label} className="flex flex-col rounded-2xl bg-white p-5 ring-1 ring-gray-200 dark:bg-gray-900 dark:ring-white/10">
                <dt className="text-sm text-gray-600 dark:text-gray-300">{stat.label}</dt>
                <dd className="order-first text-3xl font-bold tracking-tight text-brand-700 dark:text-brand-300">{stat.value}</dd>
              </div>
            ))}
          </dl>
          <SiteLink
            to={story.link.to}
            className="mt-6 inline-flex items-center gap-2 font-semibold text-brand-700 underline-offset-4 hover:underline dark:text-brand-300"
          >
            {story.link.label}
            <span aria-hidden="true">→</span>
          </SiteLink>
        </div>
      </div>
    </section>
  );
}
