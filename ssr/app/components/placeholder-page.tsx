import type { ReactNode } from "react";
import { headingOf, useRouteEntry } from "~/lib/route-entry";

/** A page that names itself with its route-table title and description; later work fills it in. */
export function PlaceholderPage({ heading, children }: { heading?: string; children?: ReactNode }) {
  const entry = useRouteEntry();
  return (
    <section className="mx-auto max-w-3xl px-4 py-20 sm:px-6">
      <h1 className="text-4xl font-bold tracking-tight text-balance sm:text-5xl">{heading ?? headingOf(entry)}</h1>
      <p className="mt-6 text-lg text-gray-600 dark:text-gray-400">{entry.description}</p>
      {children}
    </section>
  );
}
