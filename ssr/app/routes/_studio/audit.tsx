// /staff/audit: an admin's page of the audit log, newest first: when, who,
// what, which item and revision, the detail and the client address. The
// filter is a plain GET form (no JavaScript needed), the next page a link,
// and "Export CSV" downloads the same filter's entries from the staff API.
// Admins only: anyone else gets the site's 404 page.
import { data, Link, useLoaderData } from "react-router";
import { Notice, StudioHeader } from "~/components/studio/studio-header";
import { routeMeta } from "~/lib/meta";
import { when } from "~/lib/studio";
import { studioData, studioHeaders } from "~/lib/studio.server";
import type { Route } from "./+types/audit";
import routeCopy from "virtual:route-copy";

export const handle = { routeCopy };
export const meta = routeMeta;
export const headers = () => studioHeaders;

export function loader({ request }: Route.LoaderArgs) {
  const d = studioData(request);
  // The edge sends the log to an admin only.
  if (!d.audit && !d.error) throw data(null, { status: 404 });
  return d;
}

const FILTERS: { name: string; label: string; type: string; hint?: string }[] = [
  { name: "actor", label: "Who (e-mail address)", type: "text" },
  { name: "action", label: "Action", type: "text", hint: "exact, or a prefix ending in a dot: role." },
  { name: "itemType", label: "Item type", type: "text", hint: "blog, help, policy, redirect, member…" },
  { name: "from", label: "From (day, UTC)", type: "date" },
  { name: "to", label: "To (day, UTC, included)", type: "date" },
];

export default function StudioAudit() {
  const d = useLoaderData<typeof loader>();
  const audit = d.audit;
  const filter = audit?.filter ?? {};
  const query = new URLSearchParams(Object.entries(filter).filter(([, v]) => v !== ""));
  const csv = `/api/v1/staff/audit.csv${query.size ? `?${query}` : ""}`;
  const next = new URLSearchParams(query);
  if (audit?.next) next.set("before", String(audit.next));
  const input = "mt-1 block w-full rounded-md border border-gray-300 bg-white px-3 py-2 text-sm dark:border-gray-700 dark:bg-gray-900";
  const errors = audit?.errors ?? {};

  return (
    <div className="w-full">
      <StudioHeader member={d.member} current="audit" admin={d.admin} />
      <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
        <h1 className="text-3xl font-bold tracking-tight">Audit log</h1>
        <p className="mt-2 text-sm text-gray-600 dark:text-gray-400">Every staff action, newest first. Nothing here can be changed or deleted.</p>
        {d.error && <Notice tone="error">{d.error}</Notice>}
        {Object.keys(errors).length > 0 && <Notice tone="error">Some filters could not be read, so nothing is listed: {Object.entries(errors).map(([k, v]) => `${k}: ${v}`).join(" ")}</Notice>}

        <form method="get" action="/staff/audit" className="mt-6 grid gap-3 sm:grid-cols-3 lg:grid-cols-6" aria-label="Filter the audit log">
          {FILTERS.map((f) => (
            <label key={f.name} className="block text-sm font-medium">
              {f.label}
              <input
                name={f.name}
                type={f.type}
                defaultValue={filter[f.name] ?? ""}
                list={f.name === "action" ? "audit-actions" : undefined}
                title={f.hint}
                className={input}
                aria-invalid={!!errors[f.name] || undefined}
              />
            </label>
          ))}
          <datalist id="audit-actions">
            {(audit?.actions ?? []).map((a) => (
              <option key={a} value={a} />
            ))}
          </datalist>
          <div className="flex items-end gap-3">
            <button className="rounded-md bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700">Filter</button>
            <Link to="/staff/audit" className="py-2 text-sm underline">
              Clear
            </Link>
          </div>
        </form>
        <p className="mt-4 text-sm">
          <a href={csv} download className="font-semibold underline">
            Export CSV
          </a>{" "}
          <span className="text-gray-600 dark:text-gray-400">(this filter, newest first, up to 50,000 entries; the export itself is recorded)</span>
        </p>

        <div className="mt-4 overflow-x-auto">
          <table className="w-full text-left text-sm" data-audit>
            <thead className="border-b border-gray-200 text-xs tracking-wide text-gray-600 uppercase dark:border-gray-800 dark:text-gray-400">
              <tr>
                <th className="py-2 pr-4">When</th>
                <th className="py-2 pr-4">Who</th>
                <th className="py-2 pr-4">Action</th>
                <th className="py-2 pr-4">Item</th>
                <th className="py-2 pr-4">Revision</th>
                <th className="py-2 pr-4">Detail</th>
                <th className="py-2">Client address</th>
              </tr>
            </thead>
            <tbody>
              {(audit?.entries ?? []).map((e) => (
                <tr key={e.id} className="border-b border-gray-100 align-top dark:border-gray-900" data-entry={e.action}>
                  <td className="py-2 pr-4 whitespace-nowrap">{when(e.at)}</td>
                  <td className="py-2 pr-4 break-all">{e.actor}</td>
                  <td className="py-2 pr-4 whitespace-nowrap">{e.action}</td>
                  <td className="py-2 pr-4 break-all">{[e.itemType, e.itemId].filter(Boolean).join(": ")}</td>
                  <td className="py-2 pr-4">{e.revision || ""}</td>
                  <td className="py-2 pr-4 break-words">{e.detail}</td>
                  <td className="py-2 whitespace-nowrap">{e.clientIp}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {audit && audit.entries.length === 0 && Object.keys(errors).length === 0 && <p className="mt-4 text-sm">No entry matches this filter.</p>}
        </div>
        {audit?.next ? (
          <p className="mt-4 text-sm">
            <Link to={`/staff/audit?${next}`} className="font-semibold underline">
              Older entries
            </Link>
          </p>
        ) : null}
      </div>
    </div>
  );
}
