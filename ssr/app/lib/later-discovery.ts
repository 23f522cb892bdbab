// React Router's route discovery waits for the visitor
// (docs/decisions/0068-route-discovery-waits-for-the-visitor.md).
//
// As the page hydrates, React Router gathers every link and form it made
// (their data-discover attribute), asks the edge which routes they lead to
// (/__manifest) and re-renders the whole page with those routes added. A
// first visit that never leaves the page needs none of it: on a slow phone it
// was a fifth of the scripts' work after the first paint, and one request.
// laterDiscovery() takes the links' data-discover away before the page
// hydrates (and from any that arrive later in the document) and gives it back
// at the visitor's first sign of heading somewhere: the pointer over the
// page, a touch, a key, a focus. React Router's own watcher then sees the
// links again and asks for their routes as it always did. An anonymous
// visitor's page hydrates at that same sign (lib/boot.ts), so React Router
// usually makes its router after the release: its first look finds the links
// then. A click on a hydrated page navigates on the client: React Router asks
// for a route it does not know when it navigates to it. A page the installed app's service
// worker controls is left alone: offline, the routes could not be asked for.
//
// Hovering a link prefetches its page (prefetch="intent"), and React Router
// looks its route up once, 100 ms after the pointer came; on the first hover
// the route may not have arrived by then. So when the routes arrive and the
// pointer is still over a link, the link is told the pointer left and, once
// that is drawn, came back: it looks again and prefetches.
//
// It runs in BOOT (lib/deferred-scripts.server.ts), as its own text, before
// any module loads: self-contained, no imports, no closure over module scope.
export function laterDiscovery(): void {
  type Router = { subscribe: (fn: (state: { navigation: { state: string } }) => void) => () => void };
  const w = window as unknown as { __laterDiscovery?: boolean; __reactRouterDataRouter?: Router; __reactRouterManifest?: { routes: object } };
  if (w.__laterDiscovery) return;
  w.__laterDiscovery = true;
  // A page the installed app's service worker answers may be used offline
  // later, where a route not asked for now could not be asked for: it asks
  // as it hydrates, as before (a first visit has no worker yet).
  if (navigator.serviceWorker?.controller) return;
  const held: Element[] = [];
  const hold = () =>
    document.querySelectorAll("a[data-discover],form[data-discover]").forEach((el) => {
      el.removeAttribute("data-discover");
      held.push(el);
    });
  hold();
  const watcher = typeof MutationObserver == "function" ? new MutationObserver(hold) : null;
  watcher?.observe(document.documentElement, { childList: true, subtree: true });
  const signs = ["pointerover", "pointerdown", "touchstart", "keydown", "focusin"];
  const routeCount = () => Object.keys(w.__reactRouterManifest?.routes ?? {}).length;
  const release = () => {
    for (const k of signs) removeEventListener(k, release, true);
    watcher?.disconnect();
    for (const el of held) el.setAttribute("data-discover", "true");
    held.length = 0;
    const router = w.__reactRouterDataRouter;
    if (router) return rehover(router);
    // Not hydrated yet (an anonymous visitor's page hydrates at this same sign: lib/boot.ts).
    // React Router's first look at the page finds the links; the hovered one looks again
    // once their routes arrived, as below, from the moment React Router makes its router.
    let made: Router | undefined;
    Object.defineProperty(w, "__reactRouterDataRouter", {
      configurable: true,
      get: () => made,
      set: (r: Router) => {
        made = r;
        Object.defineProperty(w, "__reactRouterDataRouter", { configurable: true, writable: true, value: r });
        rehover(r);
      },
    });
  };
  const rehover = (router: Router) => {
    const before = routeCount();
    const stop = router.subscribe((state) => {
      if (routeCount() == before || state.navigation.state != "idle") return;
      stop();
      const hovered = document.querySelector("a[data-discover]:hover");
      if (!hovered) return;
      // Out, and once React has drawn that (the link forgets the hover), in again.
      hovered.dispatchEvent(new MouseEvent("mouseout", { bubbles: true, relatedTarget: null }));
      requestAnimationFrame(() =>
        setTimeout(() => {
          if (hovered.matches(":hover")) hovered.dispatchEvent(new MouseEvent("mouseover", { bubbles: true, relatedTarget: null }));
        }, 0),
      );
    });
  };
  for (const k of signs) addEventListener(k, release, { capture: true, passive: true });
}
