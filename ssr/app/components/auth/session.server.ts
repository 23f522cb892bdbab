// Server-only: the visitor's sign-in status for the root loader, asked from
// the edge with the visitor's own cookie. Only a request that carries the
// session cookie makes the call, so anonymous pages (the cached ones) cost
// nothing; any failure counts as signed out (logged).
import type { SignInStatus } from "./api";

import { SESSION_COOKIE } from "~/lib/http-names";
import { errorMessage, log, requestIdHeaders } from "~/lib/log.server";
export { SESSION_COOKIE };
const API_TIMEOUT_MS = 2_000;

export async function signInStatus(request: Request, apiUrl = process.env.API_URL ?? "http://127.0.0.1:8080"): Promise<SignInStatus | null> {
  const cookie = request.headers.get("cookie") ?? "";
  if (!cookie.split(/;\s*/).some((c) => c.startsWith(`${SESSION_COOKIE}=`))) return null;
  try {
    const res = await fetch(`${apiUrl.replace(/\/+$/, "")}/api/v1/oaccount/isloggedin`, {
      headers: { accept: "application/json", cookie, ...requestIdHeaders() },
      signal: AbortSignal.timeout(API_TIMEOUT_MS),
    });
    if (!res.ok) throw new Error(`status ${res.status}`);
    const body = (await res.json()) as { data?: SignInStatus };
    if (typeof body.data?.isLoggedIn !== "boolean") throw new Error("unexpected body");
    return { isLoggedIn: body.data.isLoggedIn, omnicustomerStatus: String(body.data.omnicustomerStatus ?? "") };
  } catch (error) {
    log.warn(`isloggedin: treating the visitor as signed out (${errorMessage(error)})`);
    return null;
  }
}
