// Pictures below the first screen wait for the visitor (a first
// visit of / fetches nothing its first screen does not need).
//
// Every <Image> is an <img loading="lazy"> inside a <picture> whose first
// <source> (media NEAR_MEDIA) matches only where scripts run ("(scripting: enabled)")
// and names an empty SVG without a size (the <img>'s width and height
// attributes give its box and ratio): nothing fetched, nothing shifts. Without JavaScript (or in a browser that does not know the
// media feature) the <source> does not match and the <img> loads as it always
// did. nearImages() releases a picture (its <source> stops matching, the
// browser picks the real file, native lazy loading from there):
//   - before the visitor's first interaction, only a picture that is on the
//     screen (an IntersectionObserver without margin): Chromium's native lazy
//     loading starts every picture within 1,250-2,500 px of the screen, which
//     on a phone was the hero's screenshot and the customer logos, 37 KB of
//     the 205 KB of a first visit of /;
//   - at the visitor's first sign (pointer, key, touch, wheel, scroll, a
//     #fragment's scroll included), every picture: native lazy loading's
//     distances apply from then on, so a scrolling visitor does not meet
//     empty boxes.
// It also tells the page of the first interaction proper (a click, a key, a
// touch: FIRST_INTERACTION, a window event; afterFirstInteraction): the
// islands hydrate (lib/island.tsx), the installable app's manifest is linked
// and its service worker, which precaches the whole shell, registers
// (components/pwa).
// It runs in BOOT (lib/deferred-scripts.server.ts), as its own text, before
// any module loads: self-contained, no imports, no closure over module scope.
// The browser bundle carries none of it: a MutationObserver finds the
// pictures a client render adds.
export function nearImages(placeholder?: string): void {
  type State = { on: boolean; near: boolean; io: IntersectionObserver | null; scan: () => void };
  const w = window as unknown as { __nearImages?: State };
  if (w.__nearImages) return w.__nearImages.scan();
  // A picture's <source>, released by matching no more; or a list of mask
  // icons (the footer's, data-near-icons), released by marking it data-near
  // (its CSS then draws them from the url the server wrote as a variable).
  const release = (el: Element) => {
    if (el.tagName == "SOURCE") (el as HTMLSourceElement).media = "not all";
    else el.setAttribute("data-near", "");
  };
  // What the observer watches: a picture's <img>, a list itself.
  const watched = (el: Element) => (el.tagName == "SOURCE" ? el.nextElementSibling : el);
  const pending = () => document.querySelectorAll('source[media="(scripting: enabled)"],[data-near-icons]:not([data-near])');
  const state: State = (w.__nearImages = {
    on: false,
    near: false,
    io: null,
    scan: () =>
      pending().forEach((el) => {
        const target = watched(el);
        if (!state.near && state.io && target) state.io.observe(target);
        else release(el);
      }),
  });
  if (typeof IntersectionObserver == "function") {
    state.io = new IntersectionObserver((entries) => {
      for (const e of entries) {
        const el = e.target.hasAttribute("data-near-icons") ? e.target : e.target.previousElementSibling;
        if (e.isIntersecting && el) {
          state.io!.unobserve(e.target);
          release(el);
        }
      }
    });
  }
  // fn runs after the frame that answers the visitor's gesture (the menu opening, say), not in
  // the gesture's own task: what follows (every picture, the islands' code, the manifest) was
  // the first tap's longest part on a slow phone, and the tap waited for it to paint.
  const listen = (kinds: string[], fn: () => void) => {
    const once = () => {
      for (const k of kinds) removeEventListener(k, once, true);
      requestAnimationFrame(() => setTimeout(fn, 0));
    };
    for (const k of kinds) addEventListener(k, once, { capture: true, passive: true });
  };
  // Any sign of the visitor, scrolling included: every picture.
  const near = () => {
    if (state.near) return;
    state.near = true;
    if (state.io) state.io.disconnect();
    state.scan();
  };
  listen(["pointerdown", "keydown", "touchstart", "wheel", "scroll"], near);
  // The first interaction proper (a click, a key, a touch; not a scroll), for
  // the islands (lib/island.tsx) and the installable app. Chromium fetches a
  // linked manifest and its 192 px icon on every load to judge installability
  // (8.3 KB of a first visit), so the document links none and it comes now.
  listen(["pointerdown", "keydown", "touchstart"], () => {
    near();
    state.on = true;
    const link = document.createElement("link");
    link.rel = "manifest";
    link.href = "/manifest.webmanifest";
    document.head.appendChild(link);
    dispatchEvent(new Event("omnibus:first-interaction"));
  });
  // A picture that fails to load shows the placeholder in its box (SPEC: components/ui/image.tsx
  // does it once hydrated; before hydration, which waits for the visitor, it is done here).
  if (placeholder)
    document.addEventListener(
      "error",
      (e) => {
        const img = e.target as HTMLImageElement;
        if (img.tagName != "IMG" || img.parentElement?.tagName != "PICTURE" || img.getAttribute("src") == placeholder) return;
        img.removeAttribute("srcset");
        img.removeAttribute("sizes");
        img.setAttribute("data-failed", "true");
        img.src = placeholder;
      },
      true,
    );
  state.scan();
  // Pictures a client render adds (a client navigation, an island) wait the same way.
  if (typeof MutationObserver == "function") new MutationObserver(state.scan).observe(document.documentElement, { childList: true, subtree: true });
}

/** The window event nearImages sends at the visitor's first interaction (the same text as in nearImages). */
export const FIRST_INTERACTION = "omnibus:first-interaction";

// The browser bundle's side: BOOT has run nearImages, whose state is on window.
type NearState = { on: boolean };
const nearState = () => (window as unknown as { __nearImages?: NearState }).__nearImages;

/** Runs fn at the visitor's first interaction (now if it happened). Browser only. */
// (nearImages sends the event once: no { once } needed.)
export const afterFirstInteraction = (fn: () => void) => (nearState()?.on ? fn() : addEventListener(FIRST_INTERACTION, fn));
