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
/** A signed-in merchant's overview (base64url JSON) on the pages whose route names "merchant" in edgeData: lib/journey.server.ts. */
export const MERCHANT_HEADER: string = names.merchantHeader;
/** The signed-in visitor's own order named by ?order= (base64url JSON), on pages whose route names "order". */
export const ORDER_HEADER: string = names.orderHeader;
/** The signed-in visitor's own test-mode payment named by ?session= (base64url JSON), on pages whose route names "payment". */
export const PAYMENT_HEADER: string = names.paymentHeader;
/** The results of /search?q= (base64url JSON) on pages whose route names "search" in edgeData: lib/search.server.ts. */
export const SEARCH_HEADER: string = names.searchHeader;
/** The colour theme the visitor chose (light or dark; absent: system), which the server renders on <html>: lib/theme.ts. */
export const THEME_COOKIE: string = names.themeCookie;
/** What a content page shows (base64url JSON: article, policy, lists, preview) from the edge's content store: lib/content.server.ts. */
export const CONTENT_HEADER: string = names.contentHeader;
export const STUDIO_HEADER: string = names.studioHeader;
/** The words of a preview card (base64url JSON) on the edge's own request for its drawing: lib/og-card.server.ts. */
export const CARD_HEADER: string = names.cardHeader;
