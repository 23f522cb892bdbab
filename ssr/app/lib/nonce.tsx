// The CSP nonce of this answer (docs/decisions/0008-security-headers.md):
// the edge picks one per answer and sends it in NONCE_HEADER; the renderer
// puts it on every script it writes. Page-cache renders get a nonce too,
// which the edge swaps for script hashes before storing the page. In the
// browser there is none: browsers hide nonces from the DOM, and scripts
// added after hydration are trusted through 'strict-dynamic'.
import { createContext, useContext } from "react";
import { NONCE_HEADER } from "./http-names";

const NonceContext = createContext<string | undefined>(undefined);

export const NonceProvider = NonceContext.Provider;

/** This render's nonce (undefined in the browser and without the edge). */
export function useNonce(): string | undefined {
  return useContext(NonceContext);
}

/** The edge's nonce from the request, when it is one the edge could have made (base64, 16-64 characters). */
export function requestNonce(headers: Headers): string | undefined {
  const value = headers.get(NONCE_HEADER);
  return value && /^[A-Za-z0-9+/_-]{16,64}={0,2}$/.test(value) ? value : undefined;
}
