import { Suspense } from "react";
import { Await, Link, useLoaderData } from "react-router";
import { loadPlatformFeatures, type Feature } from "~/lib/features.server";
import { routeMeta } from "~/lib/meta";
import { headingOf, useRouteEntry } from "~/lib/route-entry";

export const meta = routeMeta;

/**
 * The feature list is deferred: the promise is returned unawaited, so browsers
 * get the page shell (heading, intro) at once and the list streams in after.
 * Crawlers get the whole document (entry.server waits for everything).
 */
export function loader() {
  return { features: loadPlatformFeatures() };
}

export default function FeaturesPage() {
  const { features } = useLoaderData<typeof loader>();
  const entry = useRouteEntry();
  return (
    <div className="mx-auto max-w-7xl px-4 py-20 sm:px-6">
      <h1 className="text-4xl font-bold tracking-tight text-balance sm:text-5xl">{headingOf(entry)}</h1>
      <p className="mt-6 max-w-3xl text-lg text-gray-600 dark:text-gray-400">{entry.description}</p>
      <Suspense fallback={<FeatureGridSkeleton />}>
        <Await resolve={features}>{(items) => <FeatureGrid items={items} />}</Await>
      </Suspense>
      <p className="mt-16">
        <Link to="/#features" className="font-semibold text-brand-600 hover:underline dark:text-brand-400">
          Back to the overview
        </Link>
      </p>
    </div>
  );
}

// Literal class names, so Tailwind generates them.
const COLORS: Record<string, string> = {
  sky: "bg-sky-100 text-sky-700 dark:bg-sky-400/15 dark:text-sky-300",
  indigo: "bg-indigo-100 text-indigo-700 dark:bg-indigo-400/15 dark:text-indigo-300",
  emerald: "bg-emerald-100 text-emerald-700 dark:bg-emerald-400/15 dark:text-emerald-300",
  rose: "bg-rose-100 text-rose-700 dark:bg-rose-400/15 dark:text-rose-300",
  amber: "bg-amber-100 text-amber-700 dark:bg-amber-400/15 dark:text-amber-300",
  violet: "bg-violet-100 text-violet-700 dark:bg-violet-400/15 dark:text-violet-300",
  fuchsia: "bg-fuchsia-100 text-fuchsia-700 dark:bg-fuchsia-400/15 dark:text-fuchsia-300",
  orange: "bg-orange-100 text-orange-700 dark:bg-orange-400/15 dark:text-orange-300",
  teal: "bg-teal-100 text-teal-700 dark:bg-teal-400/15 dark:text-teal-300",
};

// 24×24 stroke icons for the feature list's icon names.
const ICONS: Record<string, string> = {
  truck: "M3 6h11v10H3zM14 10h4l3 3v3h-7M7 19a2 2 0 1 0 0-4 2 2 0 0 0 0 4zM17 19a2 2 0 1 0 0-4 2 2 0 0 0 0 4z",
  "layout-dashboard": "M3 3h8v10H3zM13 3h8v6h-8zM13 11h8v10h-8zM3 15h8v6H3z",
  "package-check": "M21 8l-9-5-9 5v8l9 5 9-5zM3 8l9 5 9-5M12 13v8M8 12l2 2 4-4",
  "ticket-percent": "M3 7a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2v3a2 2 0 0 0 0 4v3a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2v-3a2 2 0 0 0 0-4zM9 15l6-6M9 9h.01M15 15h.01",
  "file-text": "M14 3H6a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V9zM14 3v6h6M8 13h8M8 17h6",
  "bar-chart": "M4 20V10M10 20V4M16 20v-7M22 20H2",
  sparkles: "M12 3l1.8 5.2L19 10l-5.2 1.8L12 17l-1.8-5.2L5 10l5.2-1.8zM19 15l.9 2.1L22 18l-2.1.9L19 21l-.9-2.1L16 18l2.1-.9z",
  megaphone: "M3 11v2a1 1 0 0 0 1 1h3l8 5V5L7 10H4a1 1 0 0 0-1 1zM19 8a5 5 0 0 1 0 8",
  activity: "M22 12h-4l-3 9L9 3l-3 9H2",
};
const FALLBACK_ICON = "M12 3l9 9-9 9-9-9z";

function FeatureGrid({ items }: { items: Feature[] }) {
  return (
    <ul className="mt-14 grid gap-6 sm:grid-cols-2 lg:grid-cols-3" data-testid="feature-list">
      {items.map((item) => {
        // Each card is the anchor its link points at (/features#shipping).
        const anchor = item.link.split("#")[1];
        return (
          <li key={item.title} id={anchor} className="rounded-2xl border border-gray-200 p-6 dark:border-gray-800">
            <span className={`grid size-11 place-items-center rounded-xl ${COLORS[item.color] ?? COLORS.violet}`}>
              <svg aria-hidden="true" viewBox="0 0 24 24" className="size-6" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
                <path d={ICONS[item.icon] ?? FALLBACK_ICON} />
              </svg>
            </span>
            <h2 className="mt-5 text-lg font-semibold">{item.title}</h2>
            <p className="mt-2 text-gray-600 dark:text-gray-400">{item.text}</p>
          </li>
        );
      })}
    </ul>
  );
}

function FeatureGridSkeleton() {
  return (
    <ul className="mt-14 grid gap-6 sm:grid-cols-2 lg:grid-cols-3" aria-busy="true" aria-label="Loading features">
      {Array.from({ length: 6 }, (_, i) => (
        <li key={i} className="animate-pulse rounded-2xl border border-gray-200 p-6 dark:border-gray-800">
          <span className="block size-11 rounded-xl bg-gray-200 dark:bg-gray-800" />
          <span className="mt-5 block h-5 w-2/3 rounded bg-gray-200 dark:bg-gray-800" />
          <span className="mt-3 block h-4 w-full rounded bg-gray-100 dark:bg-gray-900" />
          <span className="mt-2 block h-4 w-5/6 rounded bg-gray-100 dark:bg-gray-900" />
        </li>
      ))}
    </ul>
  );
}
