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
export function nearImages(): void {
  type State = { on: boolean; near: boolean; io: IntersectionObserver | null; scan: () => void };
  const w = window as unknown as { __nearImages?: State };
  if (w.__nearImages) return w.__nearImages.scan();
  const release = (source: Element) => {
    (source as HTMLSourceElement).media = "not all";
  };
  const pending = () => document.querySelectorAll('source[media="(scripting: enabled)"]');
  const state: State = (w.__nearImages = {
    on: false,
    near: false,
    io: null,
    scan: () =>
      pending().forEach((source) => {
        const img = source.nextElementSibling;
        if (!state.near && state.io && img) state.io.observe(img);
        else release(source);
      }),
  });
  if (typeof IntersectionObserver == "function") {
    state.io = new IntersectionObserver((entries) => {
      for (const e of entries) {
        if (e.isIntersecting && e.target.previousElementSibling) {
          state.io!.unobserve(e.target);
          release(e.target.previousElementSibling);
        }
      }
    });
  }
  const listen = (kinds: string[], fn: () => void) => {
    const once = () => {
      for (const k of kinds) removeEventListener(k, once, true);
      fn();
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
