// /blocks/advanced/<name>: the catalogue page of one composed block (registry: catalogue.tsx).
import { routeMeta } from "~/lib/meta";
import { catalogueData } from "./catalogue-data.server";
import { CataloguePage } from "./catalogue-page";
import type { Route } from "./+types/advanced";
import routeCopy from "virtual:route-copy";

export const handle = { routeCopy };
export const meta = routeMeta;

export function loader({ request }: Route.LoaderArgs) {
  return catalogueData(request);
}

export default CataloguePage;
