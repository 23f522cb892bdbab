import { useState, type FormEvent } from "react";
import { useLocation, useSearchParams } from "react-router";
import { useFormAction, useRefusedForm } from "~/lib/form-state";
import { useSiteData } from "~/lib/site-content";
import { check } from "~/lib/validation";
import { initialState, refusedState, returnPath, subscribe, SUBSCRIBE_URL, type NewsletterState } from "./state";

/**
 * The footer's newsletter sign-up. With JavaScript it posts JSON and shows the
 * outcome in place; without, the form posts form-encoded to the page it is on
 * (marked form=newsletter), which the edge answers with a redirect back here
 * (#newsletter) with ?newsletter=subscribed, or with this page again showing
 * the address and why it was refused (lib/form-state.ts).
 */
/** `id`: the box's anchor (the no-JavaScript post returns to #newsletter); another instance, e.g. in the catalogue, takes its own. */
export function NewsletterBox({ id = "newsletter" }: { id?: string }) {
  const { newsletter } = useSiteData();
  const [search] = useSearchParams();
  const { pathname } = useLocation();
  const refused = useRefusedForm("newsletter");
  // This page without a previous outcome; its query may hold what only the browser saw (junk the edge dropped).
  const action = useFormAction("newsletter", SUBSCRIBE_URL, returnPath("", search) + "#newsletter");
  const [state, setState] = useState<NewsletterState>(() => refusedState(refused, newsletter.messages) ?? initialState(search, newsletter.messages));
  const loading = state.status === "loading";

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (loading) return;
    const form = event.currentTarget;
    const email = String(new FormData(form).get("emailaddress") ?? "");
    if (check("email", email) === "") setState({ status: "loading" });
    const next = await subscribe(email, newsletter.messages);
    if (next.status === "subscribed") form.reset(); // the field clears after 'Subscribed!'
    setState(next);
  }

  function close() {
    setState({ status: "idle" });
    // Drop a no-JavaScript outcome from the address, so a reload does not show it again.
    if (search.has("newsletter")) {
      const url = returnPath(pathname, search) + window.location.hash;
      window.history.replaceState(window.history.state, "", url);
    }
  }

  return (
    <div id={id} className="self-start rounded-2xl bg-white p-6 ring-1 ring-gray-200 dark:bg-white/5 dark:ring-white/10">
      <h2 className="text-base font-semibold text-gray-900 dark:text-white">{newsletter.title}</h2>
      <p className="mt-2 text-sm text-gray-600 dark:text-gray-300">{newsletter.text}</p>
      <form
        method="post"
        action={action}
        suppressHydrationWarning
        noValidate
        onSubmit={onSubmit}
        aria-busy={loading}
        className="mt-4 flex flex-col gap-3 sm:flex-row"
      >
        <input type="hidden" name="form" value="newsletter" />
        <label htmlFor={`${id}-email`} className="sr-only">
          {newsletter.label}
        </label>
        <input
          id={`${id}-email`}
          name="emailaddress"
          type="email"
          autoComplete="email"
          inputMode="email"
          defaultValue={refused?.values.emailaddress}
          placeholder={newsletter.placeholder}
          className="min-w-0 flex-auto rounded-full border-0 bg-white px-4 py-2.5 text-base text-gray-900 ring-1 ring-gray-300 placeholder:text-gray-500 focus:ring-2 focus:ring-brand-500 focus:outline-none sm:text-sm dark:bg-gray-950 dark:text-white dark:ring-white/15 dark:placeholder:text-gray-400"
        />
        <button
          type="submit"
          disabled={loading}
          className="inline-flex flex-none items-center justify-center gap-2 rounded-full bg-brand-600 px-5 py-2.5 text-sm font-semibold text-white transition hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500 disabled:cursor-wait disabled:opacity-70"
        >
          {loading && (
            <span aria-hidden="true" className="size-4 animate-spin rounded-full border-2 border-white/40 border-t-white" />
          )}
          {loading ? newsletter.loading : newsletter.button}
        </button>
      </form>
      {/* Always present, so the outcome is announced when it appears. */}
      <div aria-live="polite">
        {(state.status === "subscribed" || state.status === "error") && (
          <Banner
            tone={state.status}
            message={state.message}
            note={state.status === "subscribed" && state.pending ? newsletter.checkInbox : undefined}
            closeLabel={newsletter.close}
            onClose={close}
          />
        )}
      </div>
    </div>
  );
}

function Banner({
  tone,
  message,
  note,
  closeLabel,
  onClose,
}: {
  tone: "subscribed" | "error";
  message: string;
  /** A second sentence under the message: what the visitor must still do. */
  note?: string;
  closeLabel: string;
  onClose: () => void;
}) {
  const look =
    tone === "error"
      ? "bg-red-50 text-red-800 ring-red-200 dark:bg-red-950/60 dark:text-red-200 dark:ring-red-900"
      : "bg-emerald-50 text-emerald-800 ring-emerald-200 dark:bg-emerald-950/60 dark:text-emerald-200 dark:ring-emerald-900";
  return (
    <div
      role={tone === "error" ? "alert" : undefined}
      data-newsletter={tone}
      className={`mt-4 flex items-start gap-3 rounded-xl px-4 py-3 text-sm font-medium ring-1 ${look}`}
    >
      <p className="flex-1">
        {message}
        {note && <span className="mt-1 block font-normal">{note}</span>}
      </p>
      <button
        type="button"
        onClick={onClose}
        className="-m-1 grid size-7 flex-none place-items-center rounded-full hover:bg-current/10 focus-visible:outline-2 focus-visible:outline-current"
      >
        <span className="sr-only">{closeLabel}</span>
        <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
          <path d="M5 5l10 10M15 5 5 15" />
        </svg>
      </button>
    </div>
  );
}
