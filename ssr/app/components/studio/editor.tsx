// The editor of one item (or of a new one): its slug and fields, the Markdown
// body with a live preview drawn by the site's own article component, and an
// image upload. Without JavaScript it is a plain form posting to its own page
// (the edge's forms, edge/internal/studiopages) with Save and Preview buttons,
// both saving a draft; with it, saves go to the studio API and a refusal
// keeps everything typed: each field's message beside it, a 409 shows the
// other editor's text beside yours.
import { useEffect, useRef, useState, type FormEvent } from "react";
import { useNavigate, useRevalidator } from "react-router";
import { ArticleView } from "~/components/content/article-view";
import { Prose } from "~/components/content/prose";
import type { FormState } from "~/lib/form-state";
import { takeTypedFields } from "~/lib/typed-before-hydration";
import { api, FIELD_LABELS, TYPE_LABELS, type Item, type Revision, type TypeSpec } from "~/lib/studio";
import { Notice } from "./studio-header";
import { MarkdownInput } from "./markdown-input";
import { ImageUpload } from "./image-upload";

interface Props {
  spec: TypeSpec;
  item?: Item;
  /** The editor's action without JavaScript: this page. */
  action: string;
  /** A refused post without JavaScript: what was typed, and why not. */
  refused: FormState | null;
  /** Open with the preview shown (?saved=preview). */
  showPreview?: boolean;
}

export function Editor({ spec, item, action, refused, showPreview = false }: Props) {
  const rev = item?.revision;
  const typed = refused?.values ?? {};
  const [base, setBase] = useState<number | undefined>(rev?.id);
  const [body, setBody] = useState(typed.body ?? rev?.body ?? "");
  const [fields, setFields] = useState<Record<string, string>>(() => Object.fromEntries(spec.fields.map((f) => [f.name, typed[f.name] ?? rev?.fields[f.name] ?? ""])));
  const [slug, setSlug] = useState(typed.slug ?? rev?.slug ?? "");
  const [errors, setErrors] = useState<Record<string, string>>(refused?.errors ?? {});
  const [error, setError] = useState<string | null>(refused?.error?.replace(/^conflict: /, "") ?? null);
  const [conflict, setConflict] = useState<Item | null>(refused?.error?.startsWith("conflict:") && item ? item : null);
  const [done, setDone] = useState<string | null>(null);
  const [html, setHtml] = useState(rev?.html ?? "");
  const [previewOpen, setPreviewOpen] = useState(showPreview);
  const [busy, setBusy] = useState(false);
  const insertRef = useRef<((text: string) => void) | null>(null);
  const navigate = useNavigate();
  const revalidator = useRevalidator();

  // What was typed before the page hydrated stays (lib/typed-before-hydration.ts): the editor's
  // state started from the server's values, and a slug typed then was saved as the old one.
  useEffect(() => {
    const { slug: typedSlug, body: typedBody } = takeTypedFields(["slug", "body"]);
    if (typedSlug !== undefined) setSlug(typedSlug);
    // The body's textarea keeps its text itself (uncontrolled); the state follows it.
    if (typedBody !== undefined) setBody(typedBody);
    const restored = takeTypedFields(spec.fields.map((f) => f.name));
    if (Object.keys(restored).length > 0) setFields((v) => ({ ...v, ...(restored as Record<string, string>) }));
    // Once, after the first render: later typing is the state's.
  }, []);

  // The live preview: the edge renders and sanitises the Markdown exactly as
  // it will store it; the site's article component draws it.
  useEffect(() => {
    if (!spec.body || !previewOpen) return;
    const timer = setTimeout(async () => {
      const res = await api<{ html: string }>("POST", "/content/render", { type: spec.type, body });
      if (res.ok) setHtml(res.data.html);
    }, 300);
    return () => clearTimeout(timer);
  }, [body, previewOpen, spec.body, spec.type]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const preview = (event.nativeEvent as SubmitEvent).submitter?.getAttribute("value") === "preview";
    const note = (event.currentTarget.elements.namedItem("note") as HTMLInputElement | null)?.value ?? "";
    setBusy(true);
    setDone(null);
    const draft = { slug, fields, body: spec.body ? body : "", note };
    const res = item ? await api<Item>("PUT", `/content/${item.id}`, { ...draft, baseRevisionId: base }) : await api<Item>("POST", "/content", { ...draft, type: spec.type });
    setBusy(false);
    if (!res.ok) {
      setErrors(res.fieldErrors);
      setError(res.error);
      if (res.status === 409 && res.current) setConflict(res.current);
      return;
    }
    setErrors({});
    setError(null);
    setConflict(null);
    if (!item) {
      navigate(`/staff/item?id=${res.data.id}&saved=${preview ? "preview" : "1"}`);
      return;
    }
    setBase(res.data.revision?.id);
    setDone(`Saved as revision ${res.data.revision?.number}. Nothing is published until you publish it.`);
    if (preview) setPreviewOpen(true);
    revalidator.revalidate();
  }

  const input = (name: string) =>
    `mt-1 block w-full rounded-md border bg-white px-3 py-2 text-sm dark:bg-gray-900 ${errors[name] ? "border-red-600" : "border-gray-300 dark:border-gray-700"}`;
  const fieldError = (name: string) =>
    errors[name] ? (
      <p id={`error-${name}`} className="mt-1 text-sm text-red-700 dark:text-red-300">
        {errors[name]}
      </p>
    ) : null;

  return (
    <div className="grid gap-8 lg:grid-cols-2">
      <form method="post" action={action} onSubmit={submit} noValidate className="min-w-0" aria-label={`${TYPE_LABELS[spec.type] ?? spec.type}`}>
        {error && <Notice tone="error">{error}</Notice>}
        {done && <Notice tone="ok">{done}</Notice>}
        <input type="hidden" name="type" value={spec.type} />
        {item && <input type="hidden" name="baseRevisionId" value={base ?? ""} />}
        <label className="mt-4 block text-sm font-medium">
          {spec.type === "redirect" ? "Old path" : spec.type === "campaign-link" ? "Short name (/go/…)" : "Slug"}
          <input
            name="slug"
            value={slug}
            onChange={(e) => setSlug(e.target.value)}
            className={input("slug")}
            aria-invalid={!!errors.slug || undefined}
            aria-describedby={errors.slug ? "error-slug" : undefined}
            required
          />
        </label>
        {fieldError("slug")}
        {spec.fields.map((f) => (
          <div key={f.name}>
            <label className="mt-4 block text-sm font-medium">
              {FIELD_LABELS[f.name] ?? f.name}
              {f.required ? "" : " (optional)"}
              {f.kind === "textarea" ? (
                <textarea
                  name={f.name}
                  rows={3}
                  value={fields[f.name]}
                  onChange={(e) => setFields({ ...fields, [f.name]: e.target.value })}
                  className={input(f.name)}
                  aria-invalid={!!errors[f.name] || undefined}
                  aria-describedby={errors[f.name] ? `error-${f.name}` : undefined}
                />
              ) : (
                <input
                  name={f.name}
                  type={f.kind === "date" ? "date" : f.kind === "number" ? "number" : "text"}
                  value={fields[f.name]}
                  onChange={(e) => setFields({ ...fields, [f.name]: e.target.value })}
                  className={input(f.name)}
                  aria-invalid={!!errors[f.name] || undefined}
                  aria-describedby={errors[f.name] ? `error-${f.name}` : undefined}
                />
              )}
            </label>
            {fieldError(f.name)}
          </div>
        ))}
        {spec.body && (
          <div className="mt-4">
            <label htmlFor="field-body" className="block text-sm font-medium">
              Body (Markdown)
            </label>
            <MarkdownInput defaultValue={body} invalid={!!errors.body} describedBy={errors.body ? "error-body" : undefined} onChange={setBody} insertRef={insertRef} />
            {fieldError("body")}
          </div>
        )}
        <label className="mt-4 block text-sm font-medium">
          Note (optional: what changed)
          <input name="note" defaultValue={typed.note ?? ""} className={input("note")} />
        </label>
        <div className="mt-6 flex flex-wrap gap-3">
          <button name="action" value="save" disabled={busy} className="rounded-md bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700 disabled:opacity-60">
            Save draft
          </button>
          {spec.body && (
            <button name="action" value="preview" disabled={busy} className="rounded-md border border-gray-300 px-4 py-2 text-sm font-semibold dark:border-gray-700">
              Save and preview
            </button>
          )}
        </div>
        {spec.body && <ImageUpload onUploaded={(md) => insertRef.current?.(`\n\n${md}\n\n`)} />}
      </form>
      {conflict?.revision && <ConflictView mine={body} theirs={conflict.revision} onTakeTheirs={() => setBase(conflict.revision!.id)} />}
      {spec.body && previewOpen && (
        <section aria-label="Preview" className="min-w-0 rounded-lg border border-dashed border-gray-300 dark:border-gray-700" data-preview>
          <p className="border-b border-dashed border-gray-300 px-4 py-2 text-xs font-semibold tracking-wide text-gray-600 uppercase dark:border-gray-700 dark:text-gray-400">
            Preview: not published
          </p>
          {spec.type === "policy" || !fields.title ? (
            <div className="px-4 py-6">
              <Prose html={html} />
            </div>
          ) : (
            <ArticleView
              article={{ slug, title: fields.title, description: fields.description ?? "", date: fields.date ?? "", updated: fields.updated || undefined, category: fields.category ?? "", html }}
              back={{ to: spec.type === "help" ? "/help" : "/blog", label: spec.type === "help" ? "Help centre" : "Blog" }}
              publishedLabel="Published"
            />
          )}
        </section>
      )}
      {spec.body && !previewOpen && (
        <p className="text-sm">
          <button type="button" className="underline" onClick={() => setPreviewOpen(true)}>
            Show the live preview
          </button>
        </p>
      )}
    </div>
  );
}

/** A stale save's two texts side by side: nothing is lost, the editor chooses. */
function ConflictView({ mine, theirs, onTakeTheirs }: { mine: string; theirs: Revision; onTakeTheirs: () => void }) {
  return (
    <section aria-labelledby="conflict-title" className="min-w-0 rounded-lg border border-amber-400 p-4" data-conflict>
      <h2 id="conflict-title" className="text-lg font-semibold">
        Someone else saved revision {theirs.number} ({theirs.author})
      </h2>
      <p className="mt-2 text-sm">
        Your text is still in the editor. Compare, merge what you want into it, then save again on top of their revision.
      </p>
      <div className="mt-3 grid gap-3 md:grid-cols-2">
        <div>
          <h3 className="text-sm font-semibold">Yours (not saved)</h3>
          <pre className="mt-1 max-h-96 overflow-auto rounded border p-2 text-xs whitespace-pre-wrap" data-mine>
            {mine}
          </pre>
        </div>
        <div>
          <h3 className="text-sm font-semibold">Theirs (saved)</h3>
          <pre className="mt-1 max-h-96 overflow-auto rounded border p-2 text-xs whitespace-pre-wrap" data-theirs>
            {theirs.body}
          </pre>
        </div>
      </div>
      <button type="button" onClick={onTakeTheirs} className="mt-3 rounded-md border px-3 py-1.5 text-sm font-semibold">
        I have merged: save mine over revision {theirs.number}
      </button>
    </section>
  );
}
