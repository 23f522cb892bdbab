// Forms without JavaScript (the edge: edge/internal/forms). A form posts to
// its own page when the route table says the page takes it (routes.json's
// form and layoutForm); the edge hands the post to the form's API handler
// and answers a refusal with that page, rendered with the form's state in a
// request header, which the root loader reads (form-state.server.ts). The
// form then starts from it: what was typed (a password only in a refused
// registration's answer, which is no-store: decision 0061), every
// field's error and the form's own error, as codes of the form's message
// table, so both paths show the same words; an unknown code shows nothing.
import { useLocation, useRouteLoaderData } from "react-router";
import { layoutForm, type FormId } from "@omnibus/shared/route-table";
import { useRouteEntry } from "./route-entry";

export type { FormId };

/** A refused post of a form, as the edge hands it over. */
export interface FormState {
  form: FormId;
  /** Typed values by field name (only the form's fields; no password but a registration's). */
  values: Record<string, string>;
  /** The error code of every invalid field, by field name. */
  errors: Record<string, string>;
  /** The form's own error code (rate limited, e-mail taken, …), or null. */
  error: string | null;
}

/**
 * The state of `form` when this document is the edge's answer to its refused
 * post, else null. The root loader's data stays for the whole visit, so the
 * state belongs to the first location only (key "default", on the server and
 * at hydration): after a client-side navigation the form starts empty.
 */
export function useRefusedForm(form: FormId): FormState | null {
  const state = (useRouteLoaderData("root") as { refusedForm?: FormState | null } | undefined)?.refusedForm;
  const { key } = useLocation();
  return state && state.form === form && key === "default" ? state : null;
}

/**
 * Where `form` posts without JavaScript: this page (its path and `suffix`)
 * when the route table says the page takes it, else `endpoint`, the API
 * (a form shown elsewhere, such as the component catalogue).
 */
export function useFormAction(form: FormId, endpoint: string, suffix = ""): string {
  const entry = useRouteEntry();
  const { pathname } = useLocation();
  return entry.form === form || layoutForm[entry.layout] === form ? pathname + suffix : endpoint;
}

/** The words of a code in a message table, or null for an unknown one (never text from the request). */
export function wordsFor<T extends Record<string, string>>(table: T, code: string | null | undefined): string | null {
  return code && Object.hasOwn(table, code) ? table[code] : null;
}

// A form the page checks itself once its script runs is checked by the
// browser before that: the server's markup keeps `required`, `type=email`
// and the lengths, so a visitor without JavaScript is still told what is
// wrong. The switch is a ref, not state set in an effect: React attaches
// refs in the commit that hydrates the form. A tap on the submit button can
// be the very thing that hydrates it (React hydrates the touched part at
// once and replays the tap), and an effect's re-render comes only after
// that tap is over, so the browser's checks would stop the submit the
// page's handler never sees, and the visitor would get the browser's bubble.

/** Use as a form's `ref`: the page's own checks take over from the browser's. */
export function ownChecks(form: HTMLFormElement | null) {
  if (form) form.noValidate = true;
}
