// /staff/item?id=…: one item's editor, its publishing, preview links and
// history; &compare=REV(&with=REV) shows two revisions compared.
import { useLoaderData, useLocation } from "react-router";
import { DiffView } from "~/components/studio/diff-view";
import { Editor } from "~/components/studio/editor";
import { ItemActions } from "~/components/studio/item-actions";
import { Notice, StudioHeader } from "~/components/studio/studio-header";
import { useRefusedForm } from "~/lib/form-state";
import { routeMeta } from "~/lib/meta";
import { TYPE_LABELS } from "~/lib/studio";
import { studioData, studioHeaders } from "~/lib/studio.server";
import type { Route } from "./+types/item";
import routeCopy from "virtual:route-copy";

export const handle = { routeCopy };
export const meta = routeMeta;
export const headers = () => studioHeaders;

export function loader({ request }: Route.LoaderArgs) {
  return studioData(request);
}

export default function StudioItem() {
  const d = useLoaderData<typeof loader>();
  const refused = useRefusedForm("studio-item");
  const { search } = useLocation();
  const q = new URLSearchParams(search);
  const item = d.item;
  const spec = item && d.types.find((t) => t.type === item.type);
  return (
    <div className="w-full">
      <StudioHeader member={d.member} current="item" admin={d.admin} />
      <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
        {d.error && <Notice tone="error">{d.error}</Notice>}
        {!item || !spec ? (
          !d.error && <Notice tone="error">There is no such item.</Notice>
        ) : (
          <>
            <p className="text-sm text-gray-600 dark:text-gray-400">{TYPE_LABELS[item.type] ?? item.type}</p>
            <h1 className="text-3xl font-bold tracking-tight break-words">{item.revision?.fields.title || item.slug}</h1>
            {q.get("saved") && !refused && <Notice tone="ok">Saved as revision {item.revision?.number}. Nothing is published until you publish it.</Notice>}
            {d.diff && <DiffView diff={d.diff} />}
            <div className="mt-6">
              <Editor key={item.id} spec={spec} item={item} action={`/staff/item?id=${item.id}`} refused={refused} showPreview={q.get("saved") === "preview"} />
            </div>
            <ItemActions item={item} revisions={d.revisions ?? []} previews={d.previews ?? []} views={d.views} />
          </>
        )}
      </div>
    </div>
  );
}
