// The page of one catalogue entry (used by block.tsx and advanced.tsx).
import { useLoaderData } from "react-router";
import { useRouteEntry } from "~/lib/route-entry";
import { catalogue, type CatalogueData } from "./catalogue";
import { BlockPage } from "./showcase";

export function CataloguePage() {
  const data = useLoaderData() as CatalogueData;
  const entry = useRouteEntry();
  const block = catalogue(data)[entry.id];
  if (!block) throw new Error(`no catalogue entry for ${entry.id}: add one to routes/_blocks/catalogue.tsx`);
  return <BlockPage block={block} homes={data.homes?.[entry.id]} />;
}
