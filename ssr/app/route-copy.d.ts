// The title and description of the routes a route module renders, by route
// id, from shared/routes.json (route-table-plugins.ts, routeCopy).
declare module "virtual:route-copy" {
  const copy: import("~/lib/route-entry").RouteCopy;
  export default copy;
}
