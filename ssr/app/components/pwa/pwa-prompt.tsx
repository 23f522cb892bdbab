// The installable app's prompt (SPEC §2): registers the service worker
// /sw.js (scope /) with workbox-window after hydration, then tells the
// visitor when the site works offline ('offline-ready') or when a new version
// is waiting ('need-refresh'), with Reload and Close buttons. Registration
// (register.ts, with workbox-window) and the message (pwa-box.tsx) are chunks
// of their own, loaded after hydration and when there is a message: neither
// is part of a page's first load.
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import type { Workbox } from "workbox-window";

export type PwaState = "offline-ready" | "need-refresh" | null;

const PwaBox = lazy(() => import("./pwa-box").then((m) => ({ default: m.PwaBox })));

export function PwaPrompt({ enabled = !import.meta.env.DEV }: { enabled?: boolean }) {
  const [state, setState] = useState<PwaState>(null);
  const workbox = useRef<Workbox | null>(null);

  useEffect(() => {
    if (!enabled || !("serviceWorker" in navigator)) return;
    let active = true;
    import("./register")
      .then(({ registerServiceWorker }) => registerServiceWorker((next) => active && setState(next)))
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
        <Suspense fallback={null}>
          <PwaBox state={state} onReload={reload} onClose={() => setState(null)} />
        </Suspense>
      )}
    </div>
  );
}
