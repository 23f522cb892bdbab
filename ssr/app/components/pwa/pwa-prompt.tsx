// The installable app's prompt (SPEC §2): registers the service worker
// /sw.js (scope /) with workbox-window after hydration, then tells the
// visitor when the site works offline ('offline-ready') or when a new version
// is waiting ('need-refresh'), with Reload and Close buttons. It is a small
// note just under the header, never over the header or the first screen's
// calls to action; 'offline-ready' leaves on its own after a few seconds
// (not while the pointer or focus is on it), 'need-refresh' stays until answered.
// Registration (register.ts, with workbox-window) and the message
// (pwa-box.tsx) are chunks of their own, loaded after hydration and when
// there is a message: neither is part of a page's first load.
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { afterFirstInteraction } from "~/lib/near-images";

export type PwaState = "offline-ready" | "need-refresh" | null;

const PwaBox = lazy(() => import("./pwa-box").then((m) => ({ default: m.PwaBox })));

export function PwaPrompt({ enabled = !import.meta.env.DEV }: { enabled?: boolean }) {
  const [state, setState] = useState<PwaState>(null);
  // The Reload of a waiting version, once registered (register.ts).
  const takeUpdate = useRef<(() => void) | null>(null);

  // At the visitor's first interaction, not at load: the
  // service worker's install precaches the whole shell (the manifest link
  // comes with that interaction too: lib/near-images.ts). A visitor who only
  // looks fetches neither; a returning visitor's page is served by the
  // installed worker all the same, and the browser checks it for updates on
  // its own; the prompt's watch for a new version starts at that interaction.
  useEffect(() => {
    if (!enabled) return;
    let active = true;
    afterFirstInteraction(() => {
      if (!active || !("serviceWorker" in navigator)) return;
      import("./register")
        .then(({ registerServiceWorker }) => registerServiceWorker((next) => active && setState(next)))
        .then((take) => {
          takeUpdate.current = take;
        })
        // Not fatal: the site works without it, only not offline.
        .catch((error: unknown) => console.warn("Service worker registration failed", error));
    });
    return () => {
      active = false;
    };
  }, [enabled]);

  const reload = () => (takeUpdate.current ? takeUpdate.current() : window.location.reload());

  return (
    // A small note just under the header, at its right on wide screens: the header, its menu and
    // the first screen's calls to action stay visible and usable while it shows.
    <div aria-live="polite" className="pointer-events-none fixed inset-x-3 top-[4.5rem] z-50 sm:left-auto sm:right-4 sm:w-96">
      {state && (
        <Suspense fallback={null}>
          <PwaBox state={state} onReload={reload} onClose={() => setState(null)} />
        </Suspense>
      )}
    </div>
  );
}
