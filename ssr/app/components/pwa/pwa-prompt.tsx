// The installable app's prompt (SPEC §2): registers the service worker
// /sw.js (scope /) with workbox-window after hydration, then tells the
// visitor when the site works offline ('offline-ready') or when a new version
// is waiting ('need-refresh'), with Reload and Close buttons.
import { useEffect, useRef, useState } from "react";
import type { Workbox } from "workbox-window";
import pwa from "../../../../shared/content/pwa.json";

export type PwaState = "offline-ready" | "need-refresh" | null;

export const SW_URL = "/sw.js";
export const SW_SCOPE = "/";

/** Registers the service worker and reports the prompt's state. Browser only. */
export async function registerServiceWorker(onState: (state: PwaState) => void): Promise<Workbox> {
  const { Workbox } = await import("workbox-window");
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

export function PwaPrompt({ enabled = !import.meta.env.DEV }: { enabled?: boolean }) {
  const [state, setState] = useState<PwaState>(null);
  const workbox = useRef<Workbox | null>(null);

  useEffect(() => {
    if (!enabled || !("serviceWorker" in navigator)) return;
    let active = true;
    registerServiceWorker((next) => active && setState(next))
      .then((wb) => {
        workbox.current = wb;
      })
      // Not fatal: the site works without it, only not offline.
      .catch((error: unknown) => console.warn("Service worker registration failed", error));
    return () => {
      active = false;
    };
  }, [enabled]);

  function reload() {
    const wb = workbox.current;
    if (!wb) return window.location.reload();
    // Reload once the waiting worker controls the page.
    wb.addEventListener("controlling", () => window.location.reload());
    wb.messageSkipWaiting();
  }

  return (
    <div aria-live="polite" className="pointer-events-none fixed inset-x-4 bottom-4 z-50 flex justify-end sm:inset-x-auto sm:right-6 sm:bottom-6">
      {state && (
        <div
          data-pwa-prompt={state}
          className="pointer-events-auto flex w-full max-w-sm items-start gap-4 rounded-2xl bg-white p-4 text-sm text-gray-900 shadow-2xl ring-1 ring-gray-200 dark:bg-gray-900 dark:text-gray-100 dark:ring-white/10"
        >
          <p className="flex-1 pt-1.5 font-medium">
            {state === "offline-ready" ? pwa.prompt.offlineReady : pwa.prompt.needRefresh}
          </p>
          <div className="flex flex-none gap-2">
            {state === "need-refresh" && (
              <button
                type="button"
                onClick={reload}
                className="rounded-full bg-brand-600 px-3.5 py-1.5 font-semibold text-white hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500"
              >
                {pwa.prompt.reload}
              </button>
            )}
            <button
              type="button"
              onClick={() => setState(null)}
              className="rounded-full px-3.5 py-1.5 font-semibold ring-1 ring-gray-300 hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500 dark:ring-white/20 dark:hover:bg-white/10"
            >
              {pwa.prompt.close}
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
