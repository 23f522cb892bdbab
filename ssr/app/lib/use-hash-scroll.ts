// Scrolling on client navigation (SPEC §2): a URL with a hash scrolls smoothly
// to its anchor, right away on the first page shown and after
// HASH_SCROLL_DELAY_MS on later ones (which meanwhile are shown at the anchor
// already, or at their top: never at the previous page's scroll position); a URL without a hash scrolls to the top,
// except back/forward, which returns to where the visitor was. This replaces
// React Router's <ScrollRestoration>, which would jump to the anchor at once.
import { Component, createElement, useLayoutEffect, useRef } from "react";
import { useLocation, useNavigationType } from "react-router";
import { HASH_SCROLL_DELAY_MS } from "./constants";

// Scroll position of each history entry seen in this visit, by location key.
const positions = new Map<string, number>();

/** How long to wait for an anchor that is not on the page yet (deferred, streamed content). */
const ANCHOR_WAIT_MS = 5_000;

function targetOf(hash: string): HTMLElement | null {
  let id = hash.slice(1);
  try {
    id = decodeURIComponent(id);
  } catch {
    // malformed escape: use the raw id
  }
  return id ? document.getElementById(id) : null;
}

/**
 * Smoothly scrolls to the hash's element; when it is not there yet (e.g. a
 * deferred section still streaming in), as soon as it appears. Returns a
 * function that stops waiting.
 */
export function scrollToHash(hash: string): () => void {
  const scroll = () => {
    const target = targetOf(hash);
    target?.scrollIntoView({ behavior: "smooth", block: "start" });
    return Boolean(target);
  };
  if (scroll()) return () => {};
  const observer = new MutationObserver(() => {
    if (scroll()) stop();
  });
  const timer = setTimeout(stop, ANCHOR_WAIT_MS);
  function stop() {
    observer.disconnect();
    clearTimeout(timer);
  }
  observer.observe(document.body, { childList: true, subtree: true });
  return stop;
}

/** Instantly shows the hash's element at the top of the window (below the sticky bar), or the page's top without it. */
function jumpTo(hash: string) {
  const target = targetOf(hash);
  if (!target) return scrollTo({ top: 0, behavior: "instant" });
  const margin = parseFloat(getComputedStyle(target).scrollMarginTop) || 0;
  scrollTo({ top: target.getBoundingClientRect().top + scrollY - margin, behavior: "instant" });
}

/**
 * Notes the window's scroll position under the entry being left, in the
 * commit that shows the next one and before React changes the page (a
 * shorter next page would clamp it). A scroll listener cannot do this
 * reliably: its effect runs some time after hydration, and a visitor who
 * scrolled before it was attached came back to the top.
 */
class ScrollMemory extends Component<{ entry: string }> {
  getSnapshotBeforeUpdate(previous: Readonly<{ entry: string }>) {
    if (previous.entry !== this.props.entry) positions.set(previous.entry, scrollY);
    return null;
  }
  componentDidUpdate() {} // React calls getSnapshotBeforeUpdate only next to it
  render() {
    return null;
  }
}

/** Rendered once, in the root: applies the scrolling rules above to every navigation. */
export function HashScroll() {
  const location = useLocation();
  const navigationType = useNavigationType();
  const firstPage = useRef(true);

  useLayoutEffect(() => {
    const first = firstPage.current;
    firstPage.current = false;

    if (location.hash) {
      if (first) return scrollToHash(location.hash);
      // Before the new page paints, put it at its anchor (or at its top while
      // the anchor is not there yet), never at the old page's scroll position,
      // which would flash another part of it (its footer) until the scroll.
      jumpTo(location.hash);
      let stopWaiting = () => {};
      const timer = setTimeout(() => (stopWaiting = scrollToHash(location.hash)), HASH_SCROLL_DELAY_MS);
      return () => {
        clearTimeout(timer);
        stopWaiting();
      };
    }
    // First page without a hash: the browser's own restoration (e.g. on reload) stands.
    if (first) return;
    scrollTo({ top: (navigationType === "POP" && positions.get(location.key)) || 0, behavior: "instant" });
  }, [location.key]); // eslint-disable-line react-hooks/exhaustive-deps
  return createElement(ScrollMemory, { entry: location.key });
}
