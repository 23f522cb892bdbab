// Typed access to routes.json, the one route table. The JSON stays the source
// of truth (the edge embeds it); this module only gives the renderer types and
// lookups.
import table from "./routes.json" with { type: "json" };

/** Layout ids the renderer knows. The table may still name another one: the
 * renderer then logs an error and uses the default layout. */
export type LayoutId = "default" | "minimal" | "inverted-nav";

/** Seconds a page may be served fresh and then stale by the edge's cache, or
 * "private" for pages that depend on the visitor. */
export type CachePolicy = "private" | { fresh: number; stale: number };

export interface RouteEntry {
  id: string;
  /** React Router path pattern; parameters are `:slug`. */
  path: string;
  layout: LayoutId | (string & {});
  /** Route module under ssr/app/routes/. */
  module: string;
  title: string;
  description: string;
  cache: CachePolicy;
  /** Query parameters the page reads; the edge drops any other before rendering. */
  query?: string[];
  /** The form the page takes posted to its own address without JavaScript (the edge: internal/forms). */
  form?: FormId;
  /** The signed-in visitor's own data the edge sends this page in the journey headers of shared/http.json (edge/internal/billing PageData). */
  edgeData?: EdgeData[];
  /** A transactional page (an order's confirmation, a sign-in step, the merchant's own pages): never indexed, no canonical link, not in the sitemap. */
  noindex?: boolean;
}

/** What the edge can send a page of a signed-in visitor's own: the store's overview, the order ?order= names, the test-mode payment ?session= names. */
export type EdgeData = "merchant" | "order" | "payment" | "search";

/** The forms that work without JavaScript by posting to their page (routes.json's form and layoutForm). */
export type FormId = "login" | "register" | "forgot-password" | "reset-password" | "contact" | "newsletter" | "store-name" | "studio-item" | "studio-new" | "studio-members";

export type NotFoundEntry = Omit<RouteEntry, "path">;

export const routes: readonly RouteEntry[] = table.routes as RouteEntry[];
export const notFound: NotFoundEntry = table.notFound as NotFoundEntry;
/** The form every page of a layout takes (the footer's newsletter box). */
export const layoutForm: Readonly<Record<string, FormId>> = (table.layoutForm ?? {}) as Record<string, FormId>;

const byId = new Map<string, RouteEntry | NotFoundEntry>(
  [...routes, notFound].map((entry) => [entry.id, entry]),
);

/** The table entry of a route id (the not-found entry included). */
export function routeById(id: string | undefined): RouteEntry | NotFoundEntry | undefined {
  return id === undefined ? undefined : byId.get(id);
}
