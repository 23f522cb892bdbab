import { FeatureGrid, type FeatureItem } from "~/components/blocks/feature-grid";
import type { LandingContent } from "./types";

export function FeaturesSection({ section, items }: { section: LandingContent["features"]; items: readonly FeatureItem[] }) {
  return (
    <section id={section.id} aria-labelledby="features-title" className="py-20 sm:py-28">
      <div className="mx-auto max-w-7xl px-4 sm:px-6">
        <div className="mx-auto max-w-3xl text-center">
          <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase dark:text-brand-300">{section.eyebrow}</p>
          <h2 id="features-title" className="mt-3 text-3xl font-bold tracking-tight text-balance text-gray-950 sm:text-5xl dark:text-white">
            {section.title}
          </h2>
          <p className="mt-6 text-lg leading-8 text-gray-600 dark:text-gray-300">{section.text}</p>
        </div>
        <FeatureGrid items={items} columns={section.columns} limit={section.limit} className="mt-14" />
      </div>
    </section>
  );
}
