// Building blocks of the sign-in forms: labelled fields with their inline
// error, the form-level alert and the submit button with its busy state.
import { useEffect, useState, type InputHTMLAttributes, type ReactNode } from "react";

/** False during the server render and hydration, true after: lets a form
 * switch from native (no-JavaScript) behaviour to scripted without a mismatch. */
export function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

type FieldProps = {
  id: string;
  label: string;
  error?: string;
  hint?: ReactNode;
} & InputHTMLAttributes<HTMLInputElement>;

export function Field({ id, label, error, hint, ...input }: FieldProps) {
  const described = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-gray-900 dark:text-white">
        {label}
      </label>
      <input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
        className={`mt-2 block w-full rounded-lg border-0 bg-white px-3.5 py-2.5 text-base text-gray-900 ring-1 placeholder:text-gray-500 focus:ring-2 focus:outline-none sm:text-sm dark:bg-gray-950 dark:text-white ${
          error ? "ring-red-500 focus:ring-red-600 dark:ring-red-400" : "ring-gray-300 focus:ring-brand-500 dark:ring-white/15"
        }`}
        {...input}
      />
      {hint && (
        <div id={`${id}-hint`} className="mt-1.5 text-sm text-gray-600 dark:text-gray-400">
          {hint}
        </div>
      )}
      {error && (
        <p id={`${id}-error`} data-field-error={id} className="mt-1.5 text-sm font-medium text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
    </div>
  );
}

/** The form's outcome: the server's errorDetail (role=alert) or a notice. */
export function FormAlert({ message, tone = "error" }: { message: string | null; tone?: "error" | "notice" }) {
  return (
    <div aria-live="polite">
      {message && (
        <p
          role={tone === "error" ? "alert" : "status"}
          data-auth-message={tone}
          className={`rounded-lg px-4 py-3 text-sm font-medium ring-1 ${
            tone === "error"
              ? "bg-red-50 text-red-800 ring-red-200 dark:bg-red-950/60 dark:text-red-200 dark:ring-red-900"
              : "bg-emerald-50 text-emerald-800 ring-emerald-200 dark:bg-emerald-950/60 dark:text-emerald-200 dark:ring-emerald-900"
          }`}
        >
          {message}
        </p>
      )}
    </div>
  );
}

export function SubmitButton({ busy, label, busyLabel }: { busy: boolean; label: string; busyLabel: string }) {
  return (
    <button
      type="submit"
      disabled={busy}
      aria-busy={busy}
      className="inline-flex w-full items-center justify-center gap-2 rounded-lg bg-brand-600 px-4 py-2.5 text-sm font-semibold text-white shadow-sm transition hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500 disabled:cursor-wait disabled:opacity-70"
    >
      {busy && <span aria-hidden="true" className="size-4 animate-spin rounded-full border-2 border-white/40 border-t-white" />}
      {busy ? busyLabel : label}
    </button>
  );
}

/** The card every auth page sits in. */
export function AuthCard({ heading, intro, children }: { heading: string; intro?: ReactNode; children: ReactNode }) {
  return (
    // Top-aligned, not centred: a centred card moves up as it grows (a part of
    // a streamed page arriving, an alert, the Google button), a layout shift.
    <section className="mx-auto w-full max-w-md flex-1 px-4 py-12 sm:px-6 sm:py-16">
      <div className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-gray-200 sm:p-8 dark:bg-white/5 dark:ring-white/10">
        <h1 className="text-2xl font-bold tracking-tight text-gray-900 dark:text-white">{heading}</h1>
        {intro && <p className="mt-2 text-sm text-gray-600 dark:text-gray-400">{intro}</p>}
        <div className="mt-6">{children}</div>
        <span id={CARD_END} />
      </div>
    </section>
  );
}

/**
 * The empty element that ends every card, and the `links` of a page with one:
 * a document that arrives in pieces is first painted once the whole card is in,
 * so no part of the form (a submit button before its label) is painted cut
 * short and then grows. Like the navigation bar's (root.tsx, navbar.tsx).
 */
const CARD_END = "card-end";
export const cardLinks = () => [{ rel: "expect", href: `#${CARD_END}`, blocking: "render" }];

/** Moves focus to the first invalid field after a refused submit. */
export function focusField(form: HTMLFormElement, name: string | undefined) {
  if (!name) return;
  const el = form.elements.namedItem(name);
  if (el instanceof HTMLElement) el.focus();
}
