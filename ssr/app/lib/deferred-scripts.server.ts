// The server half of lib/deferred-scripts.tsx: the two loader scripts and
// the taking apart of React Router's <Scripts> markup. Kept out of the
// browser's bundle: hydration leaves the server's script elements as they are.
import type { ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import type { DeferredScriptsServer, Parts } from "./deferred-scripts";
import { boot } from "./boot";
import { PLACEHOLDER_IMAGE } from "./constants";
import { laterDiscovery } from "./later-discovery";
import { nearImages } from "./near-images";

/**
 * Runs in the document, right after the inert module script: the start of
 * React Router's scripts after the first paint, hydration at the visitor's
 * first sign (lib/boot.ts), then the pictures below the first screen
 * (lib/near-images.ts) and React Router's route discovery
 * (lib/later-discovery.ts), which wait for the visitor too. Each its own text.
 */
export const BOOT = `(${boot.toString()})();(${nearImages.toString()})(${JSON.stringify(PLACEHOLDER_IMAGE)});(${laterDiscovery.toString()})()`;

/**
 * Runs in <head>, before <body> exists (when a stylesheet may still hold the
 * first paint): for a URL with a fragment, the full stylesheet now and
 * render-blocking. BOOT then finds it in place.
 */
export const DEEP_LINK_STYLESHEET = `(function(){if(location.hash.length<2)return;var l=document.createElement("link");l.rel="stylesheet";l.href=document.currentScript.dataset.href;l.setAttribute("blocking","render");document.head.appendChild(l)})()`;

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

/** What entry.server.tsx provides to lib/deferred-scripts.tsx. */
export const deferredScriptsServer: DeferredScriptsServer = {
  parts: (scripts: ReactElement) => scriptParts(renderToStaticMarkup(scripts)),
  boot: BOOT,
  deepLink: DEEP_LINK_STYLESHEET,
};

/**
 * A share-preview page (/preview/{token}: the edge renders the draft at the
 * page it previews, /blog/article/{slug} say) is the server's markup alone,
 * never hydrated: at the preview's own address React Router matches no
 * route, asks the edge's route discovery about it (refused: not a page of
 * the route table) and draws the error page over the draft. The full
 * stylesheet and the pictures' watcher (BOOT) still come; a preview is
 * there to be read, as it would be without JavaScript.
 */
export const serverMarkupOnly: DeferredScriptsServer = {
  ...deferredScriptsServer,
  parts: () => ({ context: "", module: "", preload: [] }),
};
