// React Router's routes are built from the one route table, shared/routes.json:
// every entry becomes a route with the entry's id, so the root can look the
// entry (layout, title, description) up from the matched route id. Each route
// module is its own chunk and loads on demand.
import { route, type RouteConfig } from "@react-router/dev/routes";
import { notFound, routes } from "@omnibus/shared/route-table";

export default [
  ...routes.map((entry) => route(entry.path, `routes/${entry.module}`, { id: entry.id })),
  // Any other path: the not-found page (minimal layout, status 404).
  route("*", `routes/${notFound.module}`, { id: notFound.id }),
] satisfies RouteConfig;
