// /staff: the studio's list of everything staff can edit, filtered by type,
// state and author, each page's views beside it. Staff only: the data comes
// with the page request (lib/studio.server.ts); anyone else gets the 404 page.
import { useLoaderData } from "react-router";
import { ItemList } from "~/components/studio/item-list";
import { Notice, StudioHeader } from "~/components/studio/studio-header";
import { routeMeta } from "~/lib/meta";
import { studioData, studioHeaders } from "~/lib/studio.server";
import type { Route } from "./+types/index";
import routeCopy from "virtual:route-copy";

export const handle = { routeCopy };
export const meta = routeMeta;
export const headers = () => studioHeaders;

export function loader({ request }: Route.LoaderArgs) {
  return studioData(request);
}

export default function StudioIndex() {
  const d = useLoaderData<typeof loader>();
  return (
    <div className="w-full">
      <StudioHeader member={d.member} current="list" admin={d.admin} />
      <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
        <h1 className="text-3xl font-bold tracking-tight">Everything on the site</h1>
        {d.error && <Notice tone="error">{d.error}</Notice>}
        {d.list && <ItemList list={d.list} />}
      </div>
    </div>
  );
}
