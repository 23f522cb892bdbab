import { useMatches } from "react-router";
import { notFound, routeById } from "@omnibus/shared/route-table";

/**
 * The title and description of the routes one route module renders, by
 * route id, and the module's name: `import routeCopy from "virtual:route-copy"`
 * (route-table-plugins.ts). A page's words load with its own chunk; the
 * table every page loads first carries only ids and layouts.
 */
export interface RouteCopy {
  module: string;
  routes: Record<string, { title: string; description: string }>;
  /** The table entries of routes kept out of the table every page loads (the studio's). */
  entries?: Record<string, { id: string; layout: string; form?: string; noindex?: boolean }>;
}

/** A route module's handle: `export const handle = { routeCopy };`. */
export interface RouteHandle {
  routeCopy: RouteCopy;
}

/** The page being shown: its route id, layout and form, and its module's name, title and description. */
export interface PageEntry {
  id: string;
  layout: string;
  /** The form the page takes (shared/routes.json), if any. */
  form?: string;
  /** A transactional page, never indexed (shared/routes.json's noindex). */
  noindex?: boolean;
  module: string;
  title: string;
  description: string;
}

/** The page entry of a matched route (the not-found entry when the route is not in the table). */
export function pageEntry(match: { id: string; handle?: unknown } | undefined): PageEntry {
  const copy = (match?.handle as Partial<RouteHandle> | undefined)?.routeCopy;
  const entry = routeById(match?.id) ?? copy?.entries?.[match!.id];
  if (!entry || entry.id === notFound.id) return notFound;
  const words = copy?.routes[entry.id];
  if (!copy || !words) throw new Error(`route ${entry.id}: its module exports no handle with its routeCopy (lib/route-entry.ts)`);
  return { id: entry.id, layout: entry.layout, form: entry.form, noindex: (entry as { noindex?: boolean }).noindex, module: copy.module, ...words };
}

/** The page entry of the deepest matched route (the page being shown). */
export function useRouteEntry(): PageEntry {
  const matches = useMatches();
  return pageEntry(matches[matches.length - 1]);
}

/** A page's heading from its table title: "Contact us — Omnibus" → "Contact us". */
export function headingOf(entry: { title: string }): string {
  const [heading] = entry.title.split(" — ");
  return heading === "Omnibus" ? entry.title.replace("Omnibus — ", "") : heading;
}
