// Registers the service worker /sw.js (scope /) with workbox-window. Loaded
// by pwa-prompt.tsx after hydration, with workbox-window, as one chunk.
import { Workbox } from "workbox-window";
import type { PwaState } from "./pwa-state";

export const SW_URL = "/sw.js";
export const SW_SCOPE = "/";

/** How long Reload waits for the new version to take over before it reloads anyway. */
export const PWA_RELOAD_FALLBACK_MS = 4_000;

/**
 * Registers the service worker and reports the prompt's state. Resolves to
 * the prompt's Reload for a waiting version. Browser only.
 */
export async function registerServiceWorker(onState: (state: PwaState) => void): Promise<() => void> {
  const wb = new Workbox(SW_URL, { scope: SW_SCOPE });
  // First install: the shell is precached, the site now works offline.
  wb.addEventListener("installed", (event) => {
    if (!event.isUpdate) onState("offline-ready");
  });
  // A new version is installed and waits for the open pages to let it take over.
  wb.addEventListener("waiting", () => onState("need-refresh"));
  await wb.register();
  return () => void takeWaiting(wb);
}

// Hands over to the waiting version and loads the page again once it is
// active. Its activation, not workbox's 'controlling': a page no worker
// controls (loaded with a hard reload while another tab holds the old
// version, which is why the new one waits) is not handed to the new version,
// so 'controlling' never came and Reload did nothing. If the new version has
// not taken over after a few seconds (a newer one replaced it), reload anyway
// rather than leave the button dead.
async function takeWaiting(wb: Workbox) {
  const waiting = (await navigator.serviceWorker.getRegistration(SW_SCOPE))?.waiting;
  if (!waiting) return window.location.reload();
  let done = false;
  const go = () => {
    if (!done) window.location.reload();
    done = true;
  };
  waiting.addEventListener("statechange", () => waiting.state === "activated" && go());
  window.setTimeout(go, PWA_RELOAD_FALLBACK_MS);
  wb.messageSkipWaiting();
}
