// Calls to the edge's account endpoints from the browser (same origin, with
// credentials, SPEC §7) and the redirect rules of SPEC §4.
import { redirect } from "react-router";
import auth from "@omnibus/shared/content/auth.json";
import { ONBOARDING_STATUSES } from "~/lib/next-step";

export const API = {
  login: "/api/v1/oaccount/login",
  register: "/api/v1/oaccount/register",
  logout: "/api/v1/oaccount/logout",
  isLoggedIn: "/api/v1/oaccount/isloggedin",
  forgotPassword: "/api/v1/hq/oaccount/forgotPassword",
  resetPassword: "/api/v1/hq/oaccount/resetPassword",
  availability: "/api/v1/onboarding/check-omnidomain-availability",
  google: "/api/v1/oaccount/signin/google",
  googleRedirect: "/api/v1/oaccount/sso-redirect/google",
} as const;

/** The sign-in status (SPEC §3), as the edge nests it under "data". */
export interface SignInStatus {
  isLoggedIn: boolean;
  omnicustomerStatus: string;
  /** Where the rules send this visitor (the edge adds it when signed in). */
  redirectTo?: string;
  /** Words the pages show this visitor once (the edge's notice: the account was reclaimed). */
  notice?: string;
}

/** Statuses still in onboarding: sent to /contact-us (lib/next-step.ts). */
export { ONBOARDING_STATUSES };
export const MERCHANT_APP_DEFAULT = "/landing-page";

/**
 * Where a visitor opening /login or /register belongs (SPEC §4): nowhere when
 * signed out; /contact-us (a client-side navigation) during onboarding; else
 * the merchant app by a full page load.
 */
export function destinationFor(status: SignInStatus): { to: string; fullLoad: boolean } | null {
  if (!status.isLoggedIn) return null;
  if (ONBOARDING_STATUSES.includes(status.omnicustomerStatus)) {
    // The edge's own address for it may carry a one-time notice (?notice=passwordChanged after a reset).
    return { to: status.redirectTo?.startsWith("/contact-us?") ? status.redirectTo : "/contact-us", fullLoad: false };
  }
  const to = status.redirectTo && /^(\/(?!\/)|https?:\/\/)/.test(status.redirectTo) ? status.redirectTo : MERCHANT_APP_DEFAULT;
  return { to, fullLoad: true };
}

/**
 * An answer that is not 2xx: its status, the server's errorDetail and, when
 * the server refused fields, the words for each (fieldErrors: every refusal
 * at once).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fieldErrors: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** fetch with credentials; JSON in and out; errors as ApiError(errorDetail). */
export async function api<T>(path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method: body === undefined ? "GET" : "POST",
      credentials: "include",
      headers: body === undefined ? { Accept: "application/json" } : { Accept: "application/json", "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, auth.messages.unavailable);
  }
  const json = (await res.json().catch(() => null)) as (T & { errorDetail?: string; fieldErrors?: Record<string, string> }) | null;
  if (!res.ok) throw new ApiError(res.status, json?.errorDetail || auth.messages.unavailable, fieldErrorsOf(json?.fieldErrors));
  if (json === null) throw new ApiError(res.status, auth.messages.unavailable);
  return json;
}

/** The server's words by field, strings only. */
function fieldErrorsOf(v: unknown): Record<string, string> {
  if (!v || typeof v !== "object") return {};
  return Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === "string" && e[1] !== ""));
}

/** A full page load (tests replace it: jsdom cannot navigate). */
export const browser = { assign: (url: string) => window.location.assign(url) };

/**
 * After a sign-in (password, registration, Google, reset): on to where the
 * rules send the visitor, by a full page load, so every part of the page
 * (the navigation's sign-out button) is rendered for the new session.
 */
export function goOn(status: SignInStatus) {
  const d = destinationFor(status);
  if (d) browser.assign(d.to);
}

/**
 * The client-side check before /login or /register opens (their clientLoader):
 * a signed-in visitor is redirected; when the status cannot be read it is
 * logged to the console and the page opens.
 */
export async function redirectIfSignedIn(): Promise<null> {
  let status: SignInStatus;
  try {
    status = (await api<{ data: SignInStatus }>(API.isLoggedIn)).data;
  } catch (error) {
    console.error("Could not read the sign-in status", error);
    return null;
  }
  const d = destinationFor(status);
  if (!d) return null;
  if (d.fullLoad) {
    browser.assign(d.to);
    // The page is being replaced: keep the navigation pending until it is.
    return new Promise<null>(() => {});
  }
  throw redirect(d.to);
}

/** The words for an error code a no-JavaScript post came back with; unknown codes show nothing. */
export function messageFor(code: string | null): string | null {
  if (!code) return null;
  const messages = auth.messages as Record<string, string>;
  return Object.hasOwn(messages, code) ? messages[code] : null;
}

// What /login and /register share as routes: they are for a visitor who is
// not signed in. The edge redirects a signed-in visitor before the page
// renders; a client-side navigation here runs the same check through the API.
// The (empty) server loader keeps the page server-rendered: a route with only
// a clientLoader would render its hydration fallback instead. Once the check
// lets the visitor in, the clientLoader asks for that loader's data
// (/login.data, /register.data): the request by which the edge counts the
// page view (docs/analytics.md; a redirected visitor's is not one).
export const signedOutLoader = () => null;
export async function signedOutClientLoader<T>({ serverLoader }: { serverLoader: () => Promise<T> }) {
  await redirectIfSignedIn();
  return serverLoader();
}
