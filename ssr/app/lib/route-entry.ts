import { useMatches } from "react-router";
import { notFound, routeById, type NotFoundEntry, type RouteEntry } from "../../../shared/route-table";

/** The route-table entry of the deepest matched route (the page being shown). */
export function useRouteEntry(): RouteEntry | NotFoundEntry {
  const matches = useMatches();
  return routeById(matches[matches.length - 1]?.id) ?? notFound;
}

/** A page's heading from its table title: "Contact us — Omnibus" → "Contact us". */
export function headingOf(entry: { title: string }): string {
  const [heading] = entry.title.split(" — ");
  return heading === "Omnibus" ? entry.title.replace("Omnibus — ", "") : heading;
}
