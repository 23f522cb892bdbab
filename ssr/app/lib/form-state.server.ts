// The root loader's side of forms without JavaScript (lib/form-state.ts): the
// state of a refused form post, which the edge sends in a request header
// (base64url of JSON) when it renders the page in the post's place. Only the
// edge reaches the renderer, and it removes any copy a visitor sends.
import type { FormId, FormState } from "./form-state";
import { FORM_STATE_HEADER } from "./http-names";

const FORMS: readonly FormId[] = ["login", "register", "forgot-password", "reset-password", "contact", "newsletter", "store-name", "studio-item", "studio-new", "studio-members"];

/** The refused form's state, or null (none, or not readable: the page renders as usual). */
export function refusedForm(request: Request): FormState | null {
  const raw = request.headers.get(FORM_STATE_HEADER);
  if (!raw) return null;
  let state: Record<string, unknown>;
  try {
    state = JSON.parse(Buffer.from(raw, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  if (!state || !FORMS.includes(state.form as FormId)) return null;
  return {
    form: state.form as FormId,
    values: strings(state.values),
    errors: strings(state.errors),
    error: typeof state.error === "string" ? state.error : null,
  };
}

/** The string members of an object (anything else is dropped). */
function strings(value: unknown): Record<string, string> {
  if (!value || typeof value !== "object") return {};
  return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
}
