// Markup that React does not walk in the browser (docs/decisions/0054-hydrate-only-what-moves.md).
//
// Hydration costs in proportion to the elements React walks, and most of a
// page's elements never change: card lists, feature grids, the footer's
// links, policy text. <StaticMarkup> renders its children on the server like
// any element. When the browser hydrates it, it takes the server's markup as
// it is: its element is rendered with the innerHTML the server wrote, as
// dangerouslySetInnerHTML, so React hydrates one element and none of what is
// inside (no mismatch: the markup is the same string). A client render (a
// client navigation, a new URL on the same mounted page) renders the children
// as usual, so the page changes with the URL as before.
//
// Inside, links made by React Router's <Link> (their data-discover attribute)
// still navigate on the client: one click handler on the element upgrades a
// plain left click, as <Link> does (none of the site's static links asks for
// a prefetch). Without JavaScript nothing of this runs: the markup is the
// server's.
import { createElement, useContext, useId, useState, type MouseEvent, type ReactNode } from "react";
import { UNSAFE_DataRouterContext as DataRouterContext, UNSAFE_LocationContext as LocationContext } from "react-router";

type Tag = "div" | "section" | "ul" | "ol" | "nav" | "aside" | "article" | "header";

export interface StaticMarkupProps {
  /** The element that holds the markup (its attributes are rendered on both sides). */
  as?: Tag;
  className?: string;
  id?: string;
  "aria-label"?: string;
  "aria-labelledby"?: string;
  /** Marks for styles and tests (data-island: drawn as it nears the viewport, theme.css). */
  [data: `data-${string}`]: string | undefined;
  children: ReactNode;
}

/**
 * The server's markup of the element marked `id`, when React has not taken
 * it over yet (the page is hydrating); undefined otherwise: in a client render
 * the element is not in the document, or it is one React rendered itself (a
 * page being left has one with the same id while the next one renders).
 */
function serverMarkup(id: string): string | undefined {
  if (typeof document === "undefined") return undefined;
  for (const el of document.querySelectorAll("[data-static]")) {
    if (el.getAttribute("data-static") !== id) continue;
    if (Object.keys(el).some((key) => key.startsWith("__reactFiber"))) return undefined;
    return el.innerHTML;
  }
  return undefined;
}

/** The link a click is on, when React Router made it (data-discover) and it stays in this tab. */
function routerLink(target: EventTarget | null): HTMLAnchorElement | null {
  const anchor = (target as Element | null)?.closest?.("a[data-discover]") as HTMLAnchorElement | null;
  if (!anchor || anchor.origin !== location.origin || (anchor.target && anchor.target !== "_self") || anchor.hasAttribute("download")) return null;
  return anchor;
}

export function StaticMarkup({ as = "div", children, ...attributes }: StaticMarkupProps) {
  const id = useId();
  const location = useContext(LocationContext)?.location;
  const router = useContext(DataRouterContext)?.router;
  const page = location ? location.pathname + location.search : "";
  // Taken once, as this element first renders: the server's markup and the URL it was for.
  const [server] = useState(() => {
    const html = serverMarkup(id);
    return html === undefined ? undefined : { html, page };
  });
  // The server's markup stands for its own URL only (a #fragment is the same page).
  if (!server || server.page !== page) return createElement(as, { ...attributes, "data-static": id, key: "client" }, children);

  const onClick = (event: MouseEvent) => {
    if (!router || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const anchor = routerLink(event.target);
    if (!anchor) return;
    event.preventDefault();
    void router.navigate(anchor.pathname + anchor.search + anchor.hash);
  };
  return createElement(as, { ...attributes, "data-static": id, key: "server", onClick, dangerouslySetInnerHTML: { __html: server.html } });
}
