// The catalogue's frame: each example renders one of the site's own components
// (from app/components) with the JSON content that produces it, shown beside it
// and copyable, and a light/dark switch for the preview. Used only by the
// /blocks route modules, so none of it loads on the marketing pages.
import { useState, type ComponentType } from "react";
import { Link } from "react-router";
import { useHydrated } from "~/components/auth/form-parts";
import { headingOf, useRouteEntry } from "~/lib/route-entry";
import copy from "@omnibus/shared/content/catalogue.json";

/** Where a component lives: its export name and its file from the repository's root. */
export interface ComponentHome {
  name: string;
  path: string;
}

export interface Example<P extends object = any> {
  title: string;
  note?: string;
  /** A component exported by a module under app/components (a test checks). */
  component: ComponentType<P>;
  /** The content: what a marketer puts in shared/content/ (shown as JSON). */
  props: P;
  /** Where the content lives, when it is the site's own file. */
  source?: string;
}

export interface Block {
  intro: string;
  examples: Example[];
}

export const example = <P extends object>(e: Example<P>): Example => e as Example;

export function CatalogueHeader({ back = true }: { back?: boolean }) {
  const entry = useRouteEntry();
  return (
    <header className="max-w-3xl">
      {back && (
        <Link to="/blocks" className="text-sm font-semibold text-brand-700 hover:underline dark:text-brand-300">
          <span aria-hidden="true">← </span>Component catalogue
        </Link>
      )}
      <h1 className="mt-4 text-4xl font-bold tracking-tight text-balance sm:text-5xl">{headingOf(entry)}</h1>
      <p className="mt-4 text-lg text-gray-600 dark:text-gray-400">{entry.description}</p>
    </header>
  );
}

export function BlockPage({ block, homes = [] }: { block: Block; homes?: (ComponentHome | null)[] }) {
  return (
    <div className="mx-auto max-w-7xl px-4 py-16 sm:px-6">
      <CatalogueHeader />
      <p className="mt-4 max-w-3xl text-gray-700 dark:text-gray-300">{block.intro}</p>
      <div className="mt-12 space-y-16">
        {block.examples.map((e, i) => (
          <ExampleView key={e.title} example={e} home={homes[i] ?? null} />
        ))}
      </div>
    </div>
  );
}

type Theme = "page" | "light" | "dark";

/** A copy template of catalogue.json with its {placeholders} filled in as code. */
function fill(template: string, values: Record<string, string>) {
  return template.split(/(\{[a-z]+\})/).map((part, i) => {
    const key = /^\{([a-z]+)\}$/.exec(part)?.[1];
    return key && key in values ? <code key={i} className="font-mono text-[0.9em] break-words text-gray-900 dark:text-gray-100">{values[key]}</code> : part;
  });
}

/**
 * One example: the component at the full width of the page (a block gets the
 * room it has on a real page), then two lines on where its component lives
 * and how a page uses it, then its content as JSON to copy. The controls that
 * need scripts (theme switch, copy) appear in rows whose height is reserved,
 * so nothing moves when the page hydrates.
 */
export function ExampleView({ example: e, home = null }: { example: Example; home?: ComponentHome | null }) {
  const [theme, setTheme] = useState<Theme>("page");
  const hydrated = useHydrated();
  const json = JSON.stringify(e.props, null, 2);
  const Component = e.component;
  const frame = theme === "page" ? "" : theme;
  return (
    <section data-example={e.title} className="min-w-0">
      <h2 className="text-2xl font-bold tracking-tight">{e.title}</h2>
      {e.note && <p className="mt-2 max-w-3xl text-gray-600 dark:text-gray-400">{e.note}</p>}
      <div className="mt-4 flex h-8 items-center justify-between gap-3">
        <p className="text-sm font-semibold text-gray-900 dark:text-white">{copy.previewLabel}</p>
        {hydrated && (
          <div role="group" aria-label={`Theme of the “${e.title}” preview`} className="flex gap-1 text-sm">
            {(["light", "dark"] as const).map((t) => (
              <button
                key={t}
                type="button"
                aria-pressed={theme === t}
                onClick={() => setTheme(theme === t ? "page" : t)}
                className="rounded-full px-3 py-1 font-medium ring-1 ring-gray-300 aria-pressed:bg-gray-900 aria-pressed:text-white dark:ring-white/20 dark:aria-pressed:bg-white dark:aria-pressed:text-gray-900"
              >
                {t === "light" ? "Light" : "Dark"}
              </button>
            ))}
          </div>
        )}
      </div>
      <div
        data-preview
        className={`${frame} mt-2 min-w-0 overflow-hidden rounded-2xl bg-white p-4 text-gray-900 ring-1 ring-gray-200 sm:p-6 dark:bg-gray-950 dark:text-gray-100 dark:ring-white/10 ${theme === "light" ? "[color-scheme:light]" : ""} ${theme === "dark" ? "[color-scheme:dark]" : ""}`}
      >
        <Component {...e.props} />
      </div>
      <UsagePanel title={e.title} home={home} source={e.source} json={json} hydrated={hydrated} />
    </section>
  );
}

/**
 * How a page uses a block, in two lines (where its component lives, where its
 * content goes and how the component is rendered), and the content as JSON to copy.
 */
export function UsagePanel({ title, home, source, json, hydrated }: { title: string; home: ComponentHome | null; source?: string; json: string; hydrated: boolean }) {
  return (
    <div className="mt-6 grid min-w-0 gap-x-8 gap-y-4 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
      {home && (
        <div data-usage className="min-w-0 space-y-2 text-sm text-gray-700 dark:text-gray-300">
          <p data-usage-component={home.path}>{fill(copy.componentLine, { name: home.name, path: home.path })}</p>
          <p>{fill(copy.usageLine, { source: source ?? copy.ownContent, usage: `<${home.name} {...content} />` })}</p>
        </div>
      )}
      <div className={`min-w-0 ${home ? "" : "lg:col-span-2"}`}>
        <div className="flex h-8 items-center justify-between gap-3">
          <p className="truncate text-sm font-semibold text-gray-900 dark:text-white">
            {copy.contentLabel}
            {source ? <span className="font-normal text-gray-600 dark:text-gray-400"> — {source}</span> : null}
          </p>
          {hydrated && <CopyButton text={json} label={title} />}
        </div>
        <pre tabIndex={0} data-content-json className="mt-2 max-h-96 overflow-auto rounded-xl bg-gray-900 p-4 text-xs leading-5 text-gray-100 ring-1 ring-white/10">
          <code>{json}</code>
        </pre>
      </div>
    </div>
  );
}

/** Copies the JSON; shown only once scripts run (without them the JSON above is plain, selectable text). */
function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState<"idle" | "done" | "failed">("idle");
  async function copyText() {
    try {
      await navigator.clipboard.writeText(text);
      setCopied("done");
    } catch {
      setCopied("failed");
    }
  }
  return (
    <button
      type="button"
      onClick={copyText}
      aria-label={`Copy the content of “${label}”`}
      className="rounded-full px-3 py-1 text-sm font-medium ring-1 ring-gray-300 hover:bg-gray-100 dark:ring-white/20 dark:hover:bg-white/10"
    >
      <span aria-live="polite">{copied === "done" ? "Copied" : copied === "failed" ? "Select and copy" : copy.copyLabel}</span>
    </button>
  );
}
