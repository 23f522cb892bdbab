// /features: one section per claimed feature of SPEC §1, each with the anchor
// the landing page's feature cards link to (/features#shipping …), rendered
// with the page so a hash navigation lands on it at once. The platform's
// feature list closes the page as a grid: it is content
// (shared/content/features.json, which the edge's GET /api/v1/platform-features
// serves too), read here, so the render asks the edge for nothing.
import { Link } from "react-router";
import content from "@omnibus/shared/content/features-page.json";
import features from "@omnibus/shared/content/features.json";
import { FeatureGrid } from "~/components/blocks/feature-grid";
import { FeatureIcon } from "~/components/blocks/feature-icons";
import { routeMeta } from "~/lib/meta";
import routeCopy from "virtual:route-copy";

export const handle = { routeCopy };
export const meta = routeMeta;

// An (empty) server loader: React Router asks the edge for this page's data
// (/features.data) only for a route that has one, and that request is how the
// edge counts a client-side navigation here as a page view (docs/analytics.md; app/page-views.test.ts fails without it).
export const loader = () => null;

/** Each section with the feature item whose link points at it. */
const sections = content.sections.map((section) => {
  const item = features.features.find((f) => f.link.endsWith(`#${section.id}`));
  if (!item) throw new Error(`features-page.json: no feature in features.json links to #${section.id}`);
  return { ...section, item };
});

export default function FeaturesPage() {
  return (
    <div className="mx-auto max-w-7xl px-4 py-20 sm:px-6">
      <header className="max-w-3xl">
        <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase dark:text-brand-300">{content.eyebrow}</p>
        <h1 className="mt-3 text-4xl font-bold tracking-tight text-balance sm:text-5xl">{content.heading}</h1>
        <p className="mt-6 text-lg text-gray-600 dark:text-gray-400">{content.intro}</p>
      </header>
      <nav aria-label={content.indexLabel} className="mt-10">
        <ul className="flex flex-wrap gap-2">
          {sections.map((s) => (
            <li key={s.id}>
              <a href={`#${s.id}`} className="inline-block rounded-full px-3.5 py-1.5 text-sm font-medium ring-1 ring-gray-300 hover:bg-gray-100 dark:ring-white/20 dark:hover:bg-white/10">
                {s.item.title}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div className="mt-16 divide-y divide-gray-200 dark:divide-gray-800">
        {sections.map((s) => (
          <section key={s.id} id={s.id} aria-labelledby={`${s.id}-title`} className="grid gap-6 py-12 lg:grid-cols-[16rem_1fr] lg:gap-12">
            <div className="flex items-start gap-4 lg:flex-col">
              <span className="grid size-12 flex-none place-items-center rounded-xl bg-brand-100 text-brand-700 dark:bg-brand-400/15 dark:text-brand-300">
                <FeatureIcon name={s.item.icon} />
              </span>
              <h2 id={`${s.id}-title`} className="text-2xl font-bold tracking-tight">
                {s.item.title}
              </h2>
            </div>
            <div className="max-w-3xl">
              {s.text.map((p) => (
                <p key={p} className="text-lg leading-8 text-gray-700 dark:text-gray-300">
                  {p}
                </p>
              ))}
              <ul className="mt-6 space-y-3">
                {s.points.map((point) => (
                  <li key={point} className="flex gap-3 text-gray-700 dark:text-gray-300">
                    <span aria-hidden="true" className="text-brand-600 dark:text-brand-400">
                      ✓
                    </span>
                    {point}
                  </li>
                ))}
              </ul>
            </div>
          </section>
        ))}
      </div>
      <section aria-labelledby="glance-title" className="mt-16">
        <h2 id="glance-title" className="text-2xl font-bold tracking-tight">
          {content.glance}
        </h2>
        <div className="mt-8">
          <FeatureGrid items={features.features} limit={features.features.length} columns={3} />
        </div>
      </section>
      <p className="mt-16">
        <Link to="/#features" className="font-semibold text-brand-600 hover:underline dark:text-brand-400">
          {content.back}
        </Link>
      </p>
    </div>
  );
}
