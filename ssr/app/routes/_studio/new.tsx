// /staff/new: pick a type, then write the new item as a draft.
import { Link, useLoaderData, useLocation } from "react-router";
import { Editor } from "~/components/studio/editor";
import { Notice, StudioHeader } from "~/components/studio/studio-header";
import { useRefusedForm } from "~/lib/form-state";
import { routeMeta } from "~/lib/meta";
import { TYPE_LABELS } from "~/lib/studio";
import { studioData, studioHeaders } from "~/lib/studio.server";
import type { Route } from "./+types/new";
import routeCopy from "virtual:route-copy";

export const handle = { routeCopy };
export const meta = routeMeta;
export const headers = () => studioHeaders;

export function loader({ request }: Route.LoaderArgs) {
  return studioData(request);
}

export default function StudioNew() {
  const d = useLoaderData<typeof loader>();
  const refused = useRefusedForm("studio-new");
  const { search } = useLocation();
  const type = refused?.values.type || new URLSearchParams(search).get("type") || "";
  const spec = d.types.find((t) => t.type === type);
  return (
    <div className="w-full">
      <StudioHeader member={d.member} current="new" admin={d.admin} />
      <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
        <h1 className="text-3xl font-bold tracking-tight">{spec ? `New ${(TYPE_LABELS[spec.type] ?? spec.type).toLowerCase()}` : "New"}</h1>
        {d.error && <Notice tone="error">{d.error}</Notice>}
        {spec ? (
          <div className="mt-6">
            <Editor key={spec.type} spec={spec} action={`/staff/new?type=${encodeURIComponent(spec.type)}`} refused={refused} />
          </div>
        ) : (
          <ul className="mt-6 grid gap-3 sm:grid-cols-3">
            {d.types.map((t) => (
              <li key={t.type}>
                <Link to={`/staff/new?type=${t.type}`} className="block rounded-lg border border-gray-300 p-4 font-medium hover:border-brand-500 dark:border-gray-700">
                  {TYPE_LABELS[t.type] ?? t.type}
                </Link>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
