// The prompt's message with Reload and Close, a note under the header: its
// own chunk, loaded only when there is something to say (pwa-prompt.tsx).
import { useEffect, useRef } from "react";
import pwa from "@omnibus/shared/content/pwa.json";
import { PWA_OFFLINE_READY_MS } from "~/lib/constants";
import type { PwaState } from "./pwa-state";

export function PwaBox({ state, onReload, onClose }: { state: Exclude<PwaState, null>; onReload: () => void; onClose: () => void }) {
  const box = useRef<HTMLDivElement>(null);
  // 'offline-ready' is news, not a question: it goes by itself, unless the
  // visitor is on it. (Here rather than in the prompt: this chunk loads only
  // when there is a message, and every page's first load carried it.)
  useEffect(() => {
    if (state !== "offline-ready") return;
    let timer = 0;
    const arm = () => {
      timer = window.setTimeout(() => {
        const el = box.current;
        if (el && (el.matches(":hover") || el.contains(document.activeElement))) arm();
        else onClose();
      }, PWA_OFFLINE_READY_MS);
    };
    arm();
    return () => window.clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- onClose only clears the prompt's state
  }, [state]);
  return (
    <div
      ref={box}
      data-pwa-prompt={state}
      className="pointer-events-auto rounded-2xl border border-gray-200 bg-white/95 text-sm text-gray-900 shadow-lg backdrop-blur dark:border-white/10 dark:bg-gray-900/95 dark:text-gray-100"
    >
      <div className="flex w-full items-center gap-3 px-4 py-2.5">
        <p className="flex-1 font-medium">{state === "offline-ready" ? pwa.prompt.offlineReady : pwa.prompt.needRefresh}</p>
        <div className="flex flex-none gap-2">
          {state === "need-refresh" && (
            <button
              type="button"
              onClick={onReload}
              className="rounded-full bg-brand-600 px-3.5 py-1.5 font-semibold text-white hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500"
            >
              {pwa.prompt.reload}
            </button>
          )}
          <button
            type="button"
            onClick={onClose}
            className="rounded-full px-3.5 py-1.5 font-semibold ring-1 ring-gray-300 hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500 dark:ring-white/20 dark:hover:bg-white/10"
          >
            {pwa.prompt.close}
          </button>
        </div>
      </div>
    </div>
  );
}
