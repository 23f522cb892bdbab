// What can be done to a saved item: publish now or at a time, unschedule,
// unpublish; share a preview link and revoke one; its revisions, each
// comparable with the latest (a plain link: the diff comes with the page)
// and restorable (a rollback makes a new revision). These call the studio
// API, so they need JavaScript; the item's history and diffs do not.
import { useState } from "react";
import { Link, useRevalidator } from "react-router";
import { api, STATE_LABELS, thousands, when, type Item, type Preview, type Revision } from "~/lib/studio";
import { Notice } from "./studio-header";

export function ItemActions({ item, revisions, previews, views }: { item: Item; revisions: Revision[]; previews: Preview[]; views?: number }) {
  const revalidator = useRevalidator();
  const [message, setMessage] = useState<{ tone: "ok" | "error"; text: string } | null>(null);
  const [shared, setShared] = useState<string | null>(null);
  const [at, setAt] = useState("");
  const latest = item.revision!;

  async function act(label: string, method: string, path: string, body?: unknown) {
    const res = await api<Item & Preview>(method, path, body);
    if (!res.ok) {
      setMessage({ tone: "error", text: res.fieldErrors.at ?? res.error });
      return null;
    }
    setMessage({ tone: "ok", text: label });
    revalidator.revalidate();
    return res.data;
  }
  const button = "rounded-md border border-gray-300 px-3 py-1.5 text-sm font-semibold hover:bg-gray-50 dark:border-gray-700 dark:hover:bg-white/5";

  return (
    <aside className="mt-8 space-y-6" aria-label="Publishing">
      <section>
        <h2 className="text-lg font-semibold">State: {STATE_LABELS[item.state]}</h2>
        <p className="text-sm text-gray-600 dark:text-gray-400" data-state={item.state}>
          {item.state === "scheduled" && `Goes live ${when(item.scheduledAt)}. `}
          {item.changed && "The latest revision is not the one visitors see. "}
          {item.path && (
            <>
              Page: <a href={item.path}>{item.path}</a>
              {views !== undefined && ` — ${thousands(views)} views in 30 days`}
            </>
          )}
        </p>
        {message && <Notice tone={message.tone}>{message.text}</Notice>}
        <div className="mt-3 flex flex-wrap items-end gap-3">
          <button type="button" className={button} onClick={() => act("Published.", "POST", `/content/${item.id}/publish`, { revisionId: latest.id })}>
            Publish revision {latest.number} now
          </button>
          <label className="text-sm">
            Publish at (your time)
            <input type="datetime-local" value={at} onChange={(e) => setAt(e.target.value)} className="mt-1 block rounded-md border border-gray-300 px-2 py-1 dark:border-gray-700 dark:bg-gray-900" />
          </label>
          <button
            type="button"
            className={button}
            disabled={!at}
            onClick={() => act(`Scheduled for ${new Date(at).toISOString().slice(0, 16)} UTC.`, "POST", `/content/${item.id}/schedule`, { revisionId: latest.id, at: new Date(at).toISOString() })}
          >
            Schedule
          </button>
          {item.state === "scheduled" && (
            <button type="button" className={button} onClick={() => act("Schedule cancelled.", "POST", `/content/${item.id}/unschedule`)}>
              Unschedule
            </button>
          )}
          {item.state === "published" && (
            <button type="button" className={button} onClick={() => act("Unpublished: the page now answers 410 Gone.", "POST", `/content/${item.id}/unpublish`)}>
              Unpublish
            </button>
          )}
        </div>
      </section>

      <section>
        <h2 className="text-lg font-semibold">Preview links</h2>
        <p className="text-sm text-gray-600 dark:text-gray-400">Anyone with a link sees the latest draft, without an account, for 7 days or until you revoke it.</p>
        <button
          type="button"
          className={`${button} mt-2`}
          onClick={async () => {
            const p = await act("Preview link made: copy it now, it is shown once.", "POST", `/content/${item.id}/previews`, { days: 7 });
            if (p?.url) setShared(new URL(p.url, window.location.origin).href);
          }}
        >
          Share preview
        </button>
        {shared && (
          <p className="mt-2 text-sm break-all" data-preview-url>
            <a href={shared}>{shared}</a>
          </p>
        )}
        <ul className="mt-2 space-y-1 text-sm">
          {previews.map((p) => (
            <li key={p.id} className="flex flex-wrap items-center gap-2">
              <span>
                By {p.createdBy}, {when(p.createdAt)}; {p.revokedAt ? `revoked ${when(p.revokedAt)}` : `expires ${when(p.expiresAt)}`}
              </span>
              {!p.revokedAt && (
                <button type="button" className="underline" onClick={() => act("Preview link revoked.", "DELETE", `/content/${item.id}/previews/${p.id}`)}>
                  Revoke
                </button>
              )}
            </li>
          ))}
        </ul>
      </section>

      <section>
        <h2 className="text-lg font-semibold">History</h2>
        {item.pendingRepository && (
          <Notice tone="info">
            The repository has a newer version of this item (revision {item.pendingRepository.number}) that was not applied because it was edited here.{" "}
            <Link to={`/staff/item?id=${item.id}&compare=${latest.id}&with=${item.pendingRepository.id}`}>Compare it</Link>.
          </Notice>
        )}
        <ol className="mt-2 space-y-2 text-sm" data-revisions>
          {revisions.map((r) => (
            <li key={r.id} className="flex flex-wrap items-center gap-2">
              <span className="font-medium">#{r.number}</span>
              <span>
                {r.author}, {when(r.createdAt)}
                {r.note && ` — ${r.note}`}
                {r.id === item.publishedRevisionId && " (live)"}
              </span>
              {r.id !== latest.id && (
                <>
                  <Link to={`/staff/item?id=${item.id}&compare=${r.id}`} className="underline">
                    Compare with latest
                  </Link>
                  <button
                    type="button"
                    className="underline"
                    onClick={() => act(`Rolled back: revision ${r.number}'s text is the new latest draft. Publish it to make it live.`, "POST", `/content/${item.id}/rollback`, { revisionId: r.id, baseRevisionId: latest.id })}
                  >
                    Roll back to this
                  </button>
                </>
              )}
            </li>
          ))}
        </ol>
      </section>
    </aside>
  );
}
