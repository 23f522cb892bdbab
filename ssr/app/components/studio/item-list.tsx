// The studio's index: every item, filtered by type, state and author (a plain
// GET form: works without JavaScript), with each page's views over the last 30 days.
import { Link } from "react-router";
import { STATE_LABELS, TYPE_LABELS, thousands, when, type StudioData } from "~/lib/studio";

export function ItemList({ list }: { list: NonNullable<StudioData["list"]> }) {
  const f = list.filter;
  const input = "mt-1 block w-full rounded-md border border-gray-300 bg-white px-2 py-1.5 text-sm dark:border-gray-700 dark:bg-gray-900";
  return (
    <>
      <form method="get" action="/staff" className="mt-6 grid gap-3 sm:grid-cols-5 sm:items-end" aria-label="Filter">
        <label className="text-sm">
          Type
          <select name="type" defaultValue={f.Type} className={input}>
            <option value="">Any</option>
            {Object.entries(TYPE_LABELS).map(([k, v]) => (
              <option key={k} value={k}>
                {v}
              </option>
            ))}
          </select>
        </label>
        <label className="text-sm">
          State
          <select name="state" defaultValue={f.State} className={input}>
            <option value="">Any</option>
            {Object.entries(STATE_LABELS).map(([k, v]) => (
              <option key={k} value={k}>
                {v}
              </option>
            ))}
          </select>
        </label>
        <label className="text-sm">
          Author
          <input name="author" type="text" defaultValue={f.Author} placeholder="e-mail or repository" className={input} />
        </label>
        <label className="text-sm">
          Slug or title
          <input name="q" type="search" defaultValue={f.Query} className={input} />
        </label>
        <button className="rounded-md bg-brand-600 px-3 py-2 text-sm font-semibold text-white hover:bg-brand-700">Filter</button>
      </form>
      <div className="mt-6 overflow-x-auto">
        <table className="w-full text-left text-sm" data-studio-list>
          <thead>
            <tr className="border-b border-gray-300 dark:border-gray-700">
              <th className="py-2 pr-3">Item</th>
              <th className="py-2 pr-3">Type</th>
              <th className="py-2 pr-3">State</th>
              <th className="py-2 pr-3">Author</th>
              <th className="py-2 pr-3 text-right">Views (30 days)</th>
            </tr>
          </thead>
          <tbody>
            {list.items.map((it) => (
              <tr key={it.id} className="border-b border-gray-200 align-top dark:border-gray-800" data-item={it.slug}>
                <td className="py-2 pr-3">
                  <Link to={`/staff/item?id=${it.id}`} className="font-medium text-brand-700 underline dark:text-brand-300">
                    {it.revision?.fields.title || it.slug}
                  </Link>
                  <div className="text-xs break-all text-gray-600 dark:text-gray-400">{it.path || it.slug}</div>
                </td>
                <td className="py-2 pr-3">{TYPE_LABELS[it.type] ?? it.type}</td>
                <td className="py-2 pr-3">
                  {STATE_LABELS[it.state]}
                  {it.state === "scheduled" && <div className="text-xs">{when(it.scheduledAt)}</div>}
                  {it.changed && <div className="text-xs">unpublished changes</div>}
                </td>
                <td className="py-2 pr-3 break-all">{it.revision?.author}</td>
                <td className="py-2 pr-3 text-right tabular-nums" data-views>
                  {it.path ? thousands(list.views[it.path] ?? 0) : "—"}
                </td>
              </tr>
            ))}
            {list.items.length === 0 && (
              <tr>
                <td colSpan={5} className="py-4">
                  Nothing matches.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      {list.next && (
        <p className="mt-4">
          <Link to={`/staff?${new URLSearchParams({ type: f.Type, state: f.State, author: f.Author, q: f.Query, after: list.next })}`}>Next page</Link>
        </p>
      )}
    </>
  );
}
