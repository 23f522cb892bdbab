// Server-only: the visitor's sign-in status for the root loader. The edge
// owns sessions: it resolves the session cookie once per page request and
// sends the result in the account header (shared/http.json accountHeader,
// JSON {"isLoggedIn":true,"omnicustomerStatus":"..."}), absent for anonymous
// visitors. Only the edge reaches the renderer and it strips the header from
// incoming requests, so it is trusted; anything malformed counts as signed out.
import auth from "@omnibus/shared/content/auth.json";
import type { SignInStatus } from "./api";

import { ACCOUNT_HEADER } from "~/lib/http-names";
import { log } from "~/lib/log.server";

export function signInStatus(request: Request): SignInStatus | null {
  const raw = request.headers.get(ACCOUNT_HEADER);
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<SignInStatus>;
    if (value?.isLoggedIn !== true) return null;
    const status: SignInStatus = { isLoggedIn: true, omnicustomerStatus: String(value.omnicustomerStatus ?? "") };
    // The edge names a message of auth.json (Object.hasOwn: never a prototype key).
    const notice = (value as { notice?: unknown }).notice;
    if (typeof notice === "string" && notice === "reclaimed" && Object.hasOwn(auth.messages, notice)) {
      status.notice = auth.messages[notice];
    }
    return status;
  } catch {
    log.warn(`${ACCOUNT_HEADER}: not JSON; treating the visitor as signed out`);
    return null;
  }
}
