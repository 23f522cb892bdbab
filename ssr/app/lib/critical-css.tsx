// The first view's CSS (app/critical.css), inlined in the document's <head>
// so the first paint waits for no stylesheet (docs/decisions/0014-critical-css.md).
// entry.server.tsx provides the compiled text; the browser has none (it is
// not in any chunk): React's hydration of <head> passes over the server's
// <style> element, which stays as it is.
import { createContext, useContext } from "react";
import { useNonce } from "./nonce";

const CriticalCssContext = createContext<string | undefined>(undefined);

export const CriticalCssProvider = CriticalCssContext.Provider;

/** A <style> with the critical CSS and the answer's CSP nonce (server render only). */
export function CriticalStyle() {
  const css = useContext(CriticalCssContext);
  const nonce = useNonce();
  return css ? <style nonce={nonce} dangerouslySetInnerHTML={{ __html: css }} /> : null;
}
