// React Router's scripts and the full stylesheet, fetched after the first
// paint (docs/decisions/0016-scripts-after-first-paint.md).
//
// React Router's <Scripts> writes <link rel="modulepreload"> into <head> and
// an inline module script whose static imports start every chunk's download
// the moment the parser sees it: on a slow network those ~100 KB compete with
// the document itself, and everything downloaded before the first paint is
// counted against it. Here the server renders <Scripts> once, to a string,
// and writes the same two scripts differently:
//   - React Router's context script, unchanged (it runs at once, fetches
//     nothing, and the streamed loader data appended later feeds it);
//   - the module script, inert (type="text/x-module"), with its preloads and
//     the full stylesheet in data attributes;
//   - BOOT, a small script that, once the browser reports the first
//     contentful paint, adds the preloads and the stylesheet and runs the
//     module script by re-creating it (same text: the nonce or, in a cached
//     page, the sealed hash of the inert copy allows it), for an anonymous
//     visitor only at their first sign (lib/boot.ts).
// Without JavaScript the <noscript> stylesheet applies. A deep link (a URL
// with a #section, usually below the first screen) gets the stylesheet as
// before, blocking the first paint: DEEP_LINK_STYLESHEET, in <head>, adds it
// with blocking="render", so the section paints whole on first load.
//
// The loader scripts and the taking apart are server code
// (deferred-scripts.server.ts, provided by entry.server.tsx): the browser
// never renders <Scripts> nor the loaders' text, since hydration leaves the
// server's script elements as they are (as it does for React Router's own).
import { createContext, useContext, type ReactElement } from "react";
import {
  Scripts,
  UNSAFE_DataRouterContext as DataRouterContext,
  UNSAFE_DataRouterStateContext as DataRouterStateContext,
  UNSAFE_FrameworkContext as FrameworkContext,
} from "react-router";
import { useNonce } from "./nonce";

/** <Scripts>' parts: its preloads' hrefs, its context script's and its module script's text. */
export type Parts = { context: string; module: string; preload: string[] };

/** The server's half (deferred-scripts.server.ts): undefined in the browser. */
export type DeferredScriptsServer = { parts: (scripts: ReactElement) => Parts; boot: string; deepLink: string };

const ServerContext = createContext<DeferredScriptsServer | undefined>(undefined);
export const DeferredScriptsProvider = ServerContext.Provider;

/** The inert module script's type: no browser runs it. */
const INERT_MODULE_TYPE = "text/x-module";

/** The full stylesheet at once for deep links (DEEP_LINK_STYLESHEET); render it in <head>. */
export function DeepLinkStylesheet({ href }: { href: string }) {
  const server = useContext(ServerContext);
  const nonce = useNonce();
  return <script nonce={nonce} data-href={href} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: server?.deepLink ?? "" }} />;
}

/**
 * When React Router's client starts (lib/boot.ts): once the page has painted,
 * or at the visitor's first sign after that (the page works without it until then).
 */
export type ScriptsStart = "paint" | "sign";

/** React Router's scripts, started after the first paint, and the full stylesheet. */
export function DeferredScripts({ stylesheet, start }: { stylesheet: string; start: ScriptsStart }) {
  const server = useContext(ServerContext);
  const framework = useContext(FrameworkContext);
  const dataRouter = useContext(DataRouterContext);
  const dataRouterState = useContext(DataRouterStateContext);
  const nonce = useNonce();
  // Server only (import.meta.env.SSR): the browser keeps the server's script
  // elements, so its build carries none of this composition.
  const parts: Parts =
    import.meta.env.SSR && server && framework && dataRouter && dataRouterState
      ? server.parts(
          <FrameworkContext.Provider value={framework}>
            <DataRouterContext.Provider value={dataRouter}>
              <DataRouterStateContext.Provider value={dataRouterState}>
                <Scripts nonce={nonce} />
              </DataRouterStateContext.Provider>
            </DataRouterContext.Provider>
          </FrameworkContext.Provider>,
        )
      : { context: "", module: "", preload: [] };
  return (
    <>
      <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: parts.context }} />
      <script
        nonce={nonce}
        type={INERT_MODULE_TYPE}
        data-preload={JSON.stringify(parts.preload)}
        data-stylesheet={stylesheet}
        data-start={start}
        suppressHydrationWarning
        dangerouslySetInnerHTML={{ __html: parts.module }}
      />
      <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: server?.boot ?? "" }} />
      <noscript>
        <link rel="stylesheet" href={stylesheet} />
      </noscript>
    </>
  );
}
