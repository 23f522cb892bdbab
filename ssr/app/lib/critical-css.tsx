// The first view's CSS (app/critical.css), inlined in the document's <head>
// so the first paint waits for no stylesheet (docs/decisions/0013-critical-css.md).
// entry.server.tsx provides the compiled text; the browser has none (it is
// not in any chunk): React's hydration of <head> passes over the server's
// <style> element, which stays as it is.
import { createContext, useContext, type ReactNode } from "react";
import { useNonce } from "./nonce";

const CriticalCssContext = createContext<string | undefined>(undefined);

export const CriticalCssProvider = CriticalCssContext.Provider;

/** A <style> with the critical CSS and the answer's CSP nonce (server render only). */
export function CriticalStyle() {
  const css = useContext(CriticalCssContext);
  const nonce = useNonce();
  // data-critical: the renderer cuts its rules to the document's (lib/critical-css.server.ts), and BOOT
  // switches it off once the full stylesheet, which holds the same rules, has loaded (lib/boot.ts).
  return css ? <style nonce={nonce} data-critical="" dangerouslySetInnerHTML={{ __html: css }} /> : null;
}

// What only the server writes for crawlers and link previews (lib/seo.server.tsx):
// the rest of <head> (og:type, the preview image, feed links) and, at the end of
// <body>, the JSON-LD (after the page, so the first paint waits for none of it).
// entry.server.tsx provides both the same way as the CSS above: the browser
// renders nothing here and hydration leaves the server's elements as they are.
const ServerSeoContext = createContext<{ head: ReactNode; body: ReactNode } | null>(null);

export const ServerSeoProvider = ServerSeoContext.Provider;

export function ServerHead() {
  return useContext(ServerSeoContext)?.head;
}

export function ServerBodyEnd() {
  return useContext(ServerSeoContext)?.body;
}
