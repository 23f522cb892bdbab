// The newsletter box's states (SPEC §4): idle, loading while the request runs,
// then 'Subscribed!' or an error message in a closable banner.
import type { FormState } from "~/lib/form-state";
import { wordsFor } from "~/lib/form-state";
import type { NewsletterContent } from "~/lib/site";
import { check } from "~/lib/validation";

export type NewsletterState =
  | { status: "idle" }
  | { status: "loading" }
  /** pending: the address waits for its confirmation link (double opt-in), which the visitor must open. */
  | { status: "subscribed"; message: string; pending: boolean }
  | { status: "error"; message: string };

export type Messages = NewsletterContent["messages"];

export const SUBSCRIBE_URL = "/api/v1/news-letter/subscribe";

/**
 * The state a page starts in. After a form post without JavaScript the edge
 * redirects back with ?newsletter=subscribed, the mailed confirmation link
 * with ?newsletter=confirmed or ?newsletter=error&reason=<code>; the server
 * render shows the same message the script would.
 */
export function initialState(search: URLSearchParams, messages: Messages): NewsletterState {
  const outcome = search.get("newsletter");
  if (outcome === "subscribed") return { status: "subscribed", message: messages.subscribed, pending: true };
  if (outcome === "confirmed") return { status: "subscribed", message: messages.confirmed, pending: false };
  if (outcome === "error") {
    const reason = search.get("reason") ?? "";
    const known = Object.hasOwn(messages, reason) && reason !== "subscribed";
    return { status: "error", message: known ? messages[reason as keyof Messages] : messages.unavailable };
  }
  return { status: "idle" };
}

/** The state of a post without JavaScript the edge refused (the address comes back in the field), or null. */
export function refusedState(refused: FormState | null, messages: Messages): NewsletterState | null {
  const message = refused && wordsFor(messages, refused.errors.emailaddress ?? refused.error);
  return message ? { status: "error", message } : null;
}

/** The page's own path and query without a previous outcome: where the no-JavaScript post comes back to. */
export function returnPath(pathname: string, search: URLSearchParams): string {
  const query = new URLSearchParams(search);
  query.delete("newsletter");
  query.delete("reason");
  const rest = query.toString();
  return rest ? `${pathname}?${rest}` : pathname;
}

/**
 * Posts the address as JSON with credentials (SPEC §7). A blank address, or
 * one the edge's e-mail rule refuses, is refused here without a request. The success body is not read; on failure
 * the server's errorDetail is the message.
 */
export async function subscribe(
  email: string,
  messages: Messages,
  fetcher: typeof fetch = fetch,
): Promise<NewsletterState> {
  // The edge's rule (shared/validation.json), checked before any request.
  const problem = check("email", email);
  if (problem === "required") return { status: "error", message: messages.empty };
  if (problem) return { status: "error", message: messages.invalid };
  let response: Response;
  try {
    response = await fetcher(SUBSCRIBE_URL, {
      method: "POST",
      credentials: "include",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ emailaddress: email }),
    });
  } catch {
    return { status: "error", message: messages.unavailable };
  }
  if (response.ok) return { status: "subscribed", message: messages.subscribed, pending: true };
  let detail = "";
  try {
    const body = (await response.json()) as { errorDetail?: unknown };
    if (typeof body.errorDetail === "string") detail = body.errorDetail;
  } catch {
    // not JSON (a proxy error page): fall back to the generic message
  }
  return { status: "error", message: detail || messages.unavailable };
}
