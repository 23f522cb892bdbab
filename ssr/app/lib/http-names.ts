// Cookie and header names the edge and the renderer agree on: shared/http.json, read by both sides.
import names from "@omnibus/shared/http.json";

export const SESSION_COOKIE: string = names.sessionCookie;
/** The edge's resolved sign-in state for this request (JSON), absent for anonymous visitors. */
export const ACCOUNT_HEADER: string = names.accountHeader;
/** The per-answer CSP nonce the edge chose for this document. */
export const NONCE_HEADER: string = names.nonceHeader;
export const REQUEST_ID_HEADER: string = names.requestIdHeader;
/** A refused form post's state (base64url JSON) for the page rendered in its place: lib/form-state.server.ts. */
export const FORM_STATE_HEADER: string = names.formStateHeader;
/** The colour theme the visitor chose (light or dark; absent: system), which the server renders on <html>: lib/theme.ts. */
export const THEME_COOKIE: string = names.themeCookie;
