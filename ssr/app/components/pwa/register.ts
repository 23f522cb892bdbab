// Registers the service worker /sw.js (scope /) with workbox-window. Loaded
// by pwa-prompt.tsx after hydration, with workbox-window, as one chunk.
import { Workbox } from "workbox-window";
import type { PwaState } from "./pwa-prompt";

export const SW_URL = "/sw.js";
export const SW_SCOPE = "/";

/** Registers the service worker and reports the prompt's state. Browser only. */
export async function registerServiceWorker(onState: (state: PwaState) => void): Promise<Workbox> {
  const wb = new Workbox(SW_URL, { scope: SW_SCOPE });
  // First install: the shell is precached, the site now works offline.
  wb.addEventListener("installed", (event) => {
    if (!event.isUpdate) onState("offline-ready");
  });
  // A new version is installed and waits for the open pages to let it take over.
  wb.addEventListener("waiting", () => onState("need-refresh"));
  await wb.register();
  return wb;
}
