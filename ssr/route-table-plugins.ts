// The route table (shared/routes.json) in the renderer's bundles, for
// vite.config.ts and vitest.config.ts.
//
// - clientRouteTable: the browser's copy of the table keeps each route's id
//   and layout (the root picks the page's layout), the form it takes and the
//   layouts' forms (where a form posts without JavaScript), whether it is noindex, and the not-found entry;
//   paths and cache policies serve the server and the edge, and the titles
//   and descriptions travel with their route modules (routeCopy). The table
//   is in a chunk every page loads first.
// - routeCopy: `import routeCopy from "virtual:route-copy"` in a route module
//   is the title and description of the table's routes that module renders
//   (and the module's name, for lib/meta.ts's noindex rule). The module
//   passes it to React Router as its handle (lib/route-entry.ts), so a page's
//   words load with its chunk: the landing page does not ship the titles of
//   the 80 other routes, 49 of them component demos.
import path from "node:path";
import type { Plugin } from "vite";
import table from "@omnibus/shared/routes.json" with { type: "json" };

const routesDir = path.join(import.meta.dirname, "app", "routes");
const VIRTUAL = "virtual:route-copy";

/** Routes whose table entry loads with their own module, not with every page: the studio's. */
export function ownChunkEntry(entry: { path?: string }): boolean {
  return entry.path === "/staff" || !!entry.path?.startsWith("/staff/");
}

export function clientRouteTable(): Plugin {
  return {
    name: "omnibus:client-route-table",
    enforce: "pre",
    transform(code, id, options) {
      if (options?.ssr || !id.replace(/\?.*$/, "").endsWith("/shared/routes.json")) return;
      const { notFound, routes } = JSON.parse(code) as typeof table;
      const { path: _path, cache: _cache, ...notFoundEntry } = notFound as typeof notFound & { path?: string; cache?: unknown };
      // form, layoutForm: where a form posts without JavaScript (lib/form-state.ts), the same on both sides.
      // The studio's routes (/staff) are not in the table every page loads:
      // their entries travel with their own modules' copy (below), so the
      // public pages carry not a byte of the studio.
      const client = {
        notFound: notFoundEntry,
        layoutForm: table.layoutForm,
        routes: routes.filter((r) => !ownChunkEntry(r)).map(({ id, layout, form, noindex }: { id: string; layout: string; form?: string; noindex?: boolean }) => ({ id, layout, form, noindex })),
      };
      return { code: JSON.stringify(client), map: null };
    },
  };
}

export function routeCopy(): Plugin {
  return {
    name: "omnibus:route-copy",
    enforce: "pre",
    resolveId(source, importer) {
      if (source !== VIRTUAL || !importer) return;
      const module = path.relative(routesDir, importer.replace(/\?.*$/, "")).split(path.sep).join("/");
      return `\0${VIRTUAL}:${module}`;
    },
    load(id) {
      if (!id.startsWith(`\0${VIRTUAL}:`)) return;
      const module = id.slice(VIRTUAL.length + 2);
      const routes: Record<string, { title: string; description: string }> = {};
      const entries: Record<string, { id: string; layout: string; form?: string; noindex?: boolean }> = {};
      for (const entry of [...table.routes, table.notFound]) {
        if (entry.module !== module) continue;
        routes[entry.id] = { title: entry.title, description: entry.description };
        if (ownChunkEntry(entry as { path?: string })) {
          const { id, layout, form, noindex } = entry as { id: string; layout: string; form?: string; noindex?: boolean };
          entries[id] = { id, layout, form, noindex };
        }
      }
      if (Object.keys(routes).length === 0) this.error(`${VIRTUAL} imported by ${module}, which no route of shared/routes.json names`);
      return `export default ${JSON.stringify(Object.keys(entries).length ? { module, routes, entries } : { module, routes })};`;
    },
  };
}
