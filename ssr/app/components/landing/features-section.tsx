import { FeatureGrid, type FeatureItem } from "~/components/blocks/feature-grid";
import type { LandingContent } from "./types";
import { SectionHeading } from "./section-heading";

export function FeaturesSection({ section, items }: { section: LandingContent["features"]; items: readonly FeatureItem[] }) {
  return (
    <section id={section.id} aria-labelledby="features-title" className="py-20 sm:py-28">
      <div className="mx-auto max-w-7xl px-4 sm:px-6">
        <SectionHeading titleId="features-title" eyebrow={section.eyebrow} title={section.title} text={section.text} centered />
        <FeatureGrid items={items} columns={section.columns} limit={section.limit} className="mt-14" />
      </div>
    </section>
  );
}
