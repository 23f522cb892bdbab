// React Router's scripts and the full stylesheet, fetched after the first
// paint (issue 14, docs/decisions/0016-14-scripts-after-first-paint.md).
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
//     page, the sealed hash of the inert copy allows it).
// Without JavaScript the <noscript> stylesheet applies. A deep link (a URL
// with a #section, usually below the first screen) gets the stylesheet as
// before, blocking the first paint: DEEP_LINK_STYLESHEET, in <head>, adds it
// with blocking="render", so the section paints whole on first load.
//
// The browser never renders <Scripts> (hydration leaves the server's
// elements as they are, as it does for React Router's own inline scripts).
import { createContext, useContext, type ReactElement } from "react";
import {
  Scripts,
  UNSAFE_DataRouterContext as DataRouterContext,
  UNSAFE_DataRouterStateContext as DataRouterStateContext,
  UNSAFE_FrameworkContext as FrameworkContext,
} from "react-router";
import { useNonce } from "./nonce";

/** react-dom/server's renderToStaticMarkup, provided by entry.server.tsx (the browser has none). */
const RenderContext = createContext<((element: ReactElement) => string) | undefined>(undefined);
export const ScriptsRendererProvider = RenderContext.Provider;

/** The inert module script's type: no browser runs it. */
export const INERT_MODULE_TYPE = "text/x-module";

/**
 * Runs in the document, right after the inert module script. Static text, so
 * a cached page's policy allows it by one hash whatever the page. The
 * `paint` observer is how the first paint is known; browsers without it, or
 * a page that has not painted by its load event plus a second (a background
 * tab), start at once.
 */
export const BOOT = `(function(){var m=document.currentScript.previousElementSibling,d=0;function go(){if(d)return;d=1;var h=document.head,a=JSON.parse(m.dataset.preload);for(var i=0;i<a.length;i++){var l=document.createElement("link");l.rel="modulepreload";l.href=a[i];l.nonce=m.nonce;h.appendChild(l)}if(!h.querySelector('link[rel="stylesheet"]')){var c=document.createElement("link");c.rel="stylesheet";c.href=m.dataset.stylesheet;h.appendChild(c)}var s=document.createElement("script");s.type="module";s.nonce=m.nonce;s.textContent=m.textContent;h.appendChild(s)}try{new PerformanceObserver(function(l){if(l.getEntriesByName("first-contentful-paint").length)go()}).observe({type:"paint",buffered:true})}catch(e){go()}addEventListener("load",function(){setTimeout(go,1000)})})()`;

/**
 * Runs in <head>, before <body> exists (when a stylesheet may still hold the
 * first paint): for a URL with a fragment, the full stylesheet now and
 * render-blocking. BOOT then finds it in place.
 */
export const DEEP_LINK_STYLESHEET = `(function(){if(location.hash.length<2)return;var l=document.createElement("link");l.rel="stylesheet";l.href=document.currentScript.dataset.href;l.setAttribute("blocking","render");document.head.appendChild(l)})()`;

/** The full stylesheet at once for deep links (see DEEP_LINK_STYLESHEET); render it in <head>. */
export function DeepLinkStylesheet({ href }: { href: string }) {
  const nonce = useNonce();
  return <script nonce={nonce} data-href={href} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: DEEP_LINK_STYLESHEET }} />;
}

type Parts = { context: string; module: string; preload: string[] };

/** The parts of <Scripts>' markup: its preloads' hrefs, its context script's and its module script's text. */
export function scriptParts(markup: string): Parts {
  const preload = [...markup.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)].map((m) => m[1]);
  const scripts = [...markup.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
  const context = scripts.find((m) => !/\btype=/.test(m[1]));
  const module = scripts.find((m) => /\btype="module"/.test(m[1]));
  if (!context || !module || scripts.length !== 2) {
    // A React Router upgrade changed what <Scripts> writes: fail loudly, not with a page that never hydrates.
    throw new Error(`deferred-scripts: unexpected <Scripts> markup (${scripts.length} scripts)`);
  }
  return { context: context[2], module: module[2], preload: unescape(preload) };
}

// React escapes attribute values; hrefs of built assets need only &amp;.
const unescape = (hrefs: string[]) => hrefs.map((h) => h.replaceAll("&amp;", "&"));

/** React Router's scripts, started after the first paint, and the full stylesheet. */
export function DeferredScripts({ stylesheet }: { stylesheet: string }) {
  const render = useContext(RenderContext);
  const framework = useContext(FrameworkContext);
  const dataRouter = useContext(DataRouterContext);
  const dataRouterState = useContext(DataRouterStateContext);
  const nonce = useNonce();
  // Server: React Router's own markup, taken apart. Browser: the same elements, left as the server wrote them.
  const parts =
    render && framework && dataRouter && dataRouterState
      ? scriptParts(
          render(
            <FrameworkContext.Provider value={framework}>
              <DataRouterContext.Provider value={dataRouter}>
                <DataRouterStateContext.Provider value={dataRouterState}>
                  <Scripts nonce={nonce} />
                </DataRouterStateContext.Provider>
              </DataRouterContext.Provider>
            </FrameworkContext.Provider>,
          ),
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
        suppressHydrationWarning
        dangerouslySetInnerHTML={{ __html: parts.module }}
      />
      <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: BOOT }} />
      <noscript>
        <link rel="stylesheet" href={stylesheet} />
      </noscript>
    </>
  );
}
