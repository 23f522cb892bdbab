// The start of React Router's scripts (docs/decisions/0016-scripts-after-first-paint.md,
// 0069-hydration-waits-for-the-visitor.md).
//
// Runs in the document, right after the inert module script (lib/deferred-scripts.tsx),
// as BOOT's first part (lib/deferred-scripts.server.ts): its own text, no
// imports, no closure over module scope. Static text, so a cached page's
// policy allows it by one hash whatever the page.
//
// 1. Once the browser reports the first contentful paint (browsers without the
//    `paint` observer, or a page that has not painted by its load event plus a
//    second, a background tab, start at once), it adds the module preloads,
//    one per task (on a slow phone each insertion costs milliseconds), and,
//    in the second task, without waiting for them all, gets ready to start.
// 2. The start links the full stylesheet and, once it has loaded, in a task of
//    its own, runs the module script (React Router's client: hydration). It comes at once when
//    the inert script says `data-start="paint"` (a signed-in visitor) or a
//    service worker controls the page (the installed app), and else at the
//    visitor's first sign: the pointer over the page, a press, a touch, a
//    key, a focus, a wheel, a scroll. The page works without it until then:
//    every link and form, the menu and the theme buttons are plain HTML
//    answered by the browser or the theme script, and the inline CSS draws
//    the whole page (app/critical.css). The full stylesheet is for the pages
//    a client navigation draws. A visitor who only reads never pays for
//    hydration, nor for restyling the whole page, nor for the stylesheet's
//    bytes. The chunks are preloaded at the first paint, so hydration fetches
//    nothing. A press (a tap, a click, a key) runs first: the start waits for
//    its end and for the frame that answers it, so the tap paints before
//    hydration takes the main thread.
export function boot(): void {
  const m = document.currentScript!.previousElementSibling as HTMLScriptElement;
  const h = document.head;
  const atPaint = m.dataset.start != "sign" || !!navigator.serviceWorker?.controller;
  let painted = false;
  let signed = atPaint;
  let started = false;
  const stylesheet = m.dataset.stylesheet!;
  // The full stylesheet holds every inline rule too: once it has loaded, the inline copy stops
  // applying, in the same task, so the browser restyles the page once, and every later restyle
  // (the theme's, say) matches one set of rules, not two. Switched off by its media, not
  // removed: React may be hydrating <head> then, and a node gone from under it is a mismatch.
  const inlineOff = () => {
    const inline = document.querySelector<HTMLStyleElement>("style[data-critical]");
    if (inline) inline.media = "not all";
  };
  const start = () => {
    if (started || !painted || !signed) return;
    started = true;
    // Linked already by the server (a #fragment's page, a component demo), or linked now.
    let k = h.querySelector<HTMLLinkElement>(`link[rel="stylesheet"][href="${stylesheet}"]`);
    if (!k) {
      k = document.createElement("link");
      k.rel = "stylesheet";
      k.href = stylesheet;
      h.appendChild(k);
    }
    // React renders only once the full stylesheet is in: the inline CSS holds this page's
    // rules alone (lib/critical-css.server.ts), and a client navigation or an island's
    // new state draws classes only the full stylesheet has. A stylesheet that fails
    // (offline, say) does not keep the page from hydrating.
    const run = () =>
      setTimeout(() => {
        const s = document.createElement("script");
        s.type = "module";
        s.nonce = m.nonce;
        s.textContent = m.textContent;
        h.appendChild(s);
      }, 0);
    if (k.sheet) {
      inlineOff();
      run();
    } else {
      k.addEventListener("load", () => {
        inlineOff();
        run();
      });
      k.addEventListener("error", run);
    }
  };
  const afterFrame = () =>
    requestAnimationFrame(() =>
      setTimeout(() => {
        signed = true;
        start();
      }, 0),
    );
  if (!atPaint) {
    const signs = ["pointerover", "pointerdown", "touchstart", "keydown", "focusin", "wheel", "scroll"];
    const ends = ["pointerup", "pointercancel", "touchend", "touchcancel", "keyup", "click"];
    const ended = () => {
      for (const k of ends) removeEventListener(k, ended, true);
      afterFrame();
    };
    const sign = (e: Event) => {
      for (const k of signs) removeEventListener(k, sign, true);
      // A mouse's arrival, a focus, a scroll: after its frame. A press (a touch's pointerover included): after it ends.
      if (!/^(pointerover|pointerdown|touchstart|keydown)$/.test(e.type) || (e.type == "pointerover" && (e as PointerEvent).pointerType == "mouse")) return afterFrame();
      for (const k of ends) addEventListener(k, ended, { capture: true, passive: true });
    };
    for (const k of signs) addEventListener(k, sign, { capture: true, passive: true });
  }
  let began = false;
  // One preload per task: each insertion starts its fetch there and then, 3-4 ms on a slow phone
  // (the CPU 4x slower), and a help article's fifteen chunks in one task took 34-52 ms right
  // after the first paint. The start does not wait for them all (a signed-in visitor's
  // studio has dozens): it comes in the second task, as it did, and the module script's own
  // imports fetch any chunk not preloaded yet.
  const preload = (hrefs: string[]) => {
    const href = hrefs.shift();
    if (href == null) return;
    const l = document.createElement("link");
    l.rel = "modulepreload";
    l.href = href;
    l.nonce = m.nonce;
    h.appendChild(l);
    setTimeout(() => preload(hrefs), 0);
  };
  const go = () => {
    if (began) return;
    began = true;
    preload(JSON.parse(m.dataset.preload!) as string[]);
    setTimeout(() => {
      painted = true;
      start();
    }, 0);
  };
  try {
    new PerformanceObserver((l) => {
      if (l.getEntriesByName("first-contentful-paint").length) go();
    }).observe({ type: "paint", buffered: true });
  } catch {
    go();
  }
  addEventListener("load", () => setTimeout(go, 1000));
}
