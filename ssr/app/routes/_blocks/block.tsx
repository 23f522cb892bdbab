// /blocks/<name>: the catalogue page of one UI idea (registry: catalogue.tsx).
import { routeMeta } from "~/lib/meta";
import { catalogueData } from "./catalogue-data.server";
import { CataloguePage } from "./catalogue-page";
import type { Route } from "./+types/block";
import routeCopy from "virtual:route-copy";

export const handle = { routeCopy };
export const meta = routeMeta;

export function loader({ request }: Route.LoaderArgs) {
  return catalogueData(request);
}

export default CataloguePage;
