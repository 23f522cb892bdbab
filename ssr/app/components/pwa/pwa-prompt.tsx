// The installable app's prompt (SPEC §2): registers the service worker
// /sw.js (scope /) with workbox-window after hydration, then tells the
// visitor when the site works offline ('offline-ready') or when a new version
// is waiting ('need-refresh'), with Reload and Close buttons. It lies over the
// navigation bar at the top, never over a page's content (the hero's calls to
// action, a form); 'offline-ready' leaves on its own after a few seconds
// (not while the pointer or focus is on it), 'need-refresh' stays until answered.
import { useEffect, useRef, useState } from "react";
import type { Workbox } from "workbox-window";
import pwa from "../../../../shared/content/pwa.json";
import { PWA_OFFLINE_READY_MS } from "~/lib/constants";

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
  const box = useRef<HTMLDivElement>(null);

  // 'offline-ready' is news, not a question: it goes by itself, unless the visitor is on it.
  useEffect(() => {
    if (state !== "offline-ready") return;
    let timer = 0;
    const arm = () => {
      timer = window.setTimeout(() => {
        const el = box.current;
        if (el && (el.matches(":hover") || el.contains(document.activeElement))) arm();
        else setState(null);
      }, PWA_OFFLINE_READY_MS);
    };
    arm();
    return () => window.clearTimeout(timer);
  }, [state]);

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
    <div aria-live="polite" className="pointer-events-none fixed inset-x-0 top-0 z-50">
      {state && (
        <div
          ref={box}
          data-pwa-prompt={state}
          className="pointer-events-auto flex min-h-16 items-center border-b border-gray-200 bg-white/95 text-sm text-gray-900 shadow-md backdrop-blur dark:border-white/10 dark:bg-gray-900/95 dark:text-gray-100"
        >
          <div className="mx-auto flex w-full max-w-7xl items-center gap-3 px-4 py-2 sm:px-6">
            <p className="flex-1 font-medium">
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
        </div>
      )}
    </div>
  );
}
