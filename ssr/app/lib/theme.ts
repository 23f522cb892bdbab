// Colour theme (SPEC §2 Theme): the preference (system | light | dark, default
// system) is kept in localStorage under "color-schema" and, for the server, in
// the theme cookie (shared/http.json themeCookie: light or dark, absent for
// system); when it is dark, or system resolves to dark, <html> carries the
// `dark` class. The server renders the class from the cookie (root.tsx), so a
// page is right without JavaScript: the theme buttons are then a form posting
// to the edge (POST /api/v1/theme), which sets the cookie and sends the
// browser back. The inline script below sets the class before the first
// paint (from the cookie; localStorage after the first frame), and from then on answers the
// buttons itself (themeScript): a tap sets the cookie, localStorage,
// the class and the pressed button at once, whether React has hydrated the
// page or not, so the first tap of a slow phone waits for no hydration. This
// module's store follows (its "themechange" event, another tab, the system).
import { useSyncExternalStore } from "react";
import { useRouteLoaderData } from "react-router";
import { THEME_COOKIE } from "./http-names";
import {
  DEFAULT_THEME,
  THEME_PREFERENCES,
  THEME_STORAGE_KEY,
  type ThemePreference,
} from "./constants";

export type ResolvedTheme = "light" | "dark";

/** The theme a stored preference resolves to. Unknown or missing values count as the default (system). */
export function resolveTheme(preference: string | null | undefined, prefersDark: boolean): ResolvedTheme {
  if (preference === "dark" || preference === "light") return preference;
  return prefersDark ? "dark" : "light";
}

/** The cookie's light or dark, or null (no cookie, or any other value: system). */
export function cookieTheme(cookieHeader: string | null | undefined): "light" | "dark" | null {
  const m = (cookieHeader ?? "").match(COOKIE_PATTERN);
  return m ? (m[1] as "light" | "dark") : null;
}
const COOKIE_PATTERN = new RegExp(`(?:^|;\\s*)${THEME_COOKIE}=(light|dark)(?:;|$)`);

/** The preference the server renders for a request: its theme cookie's, else system. */
export function requestTheme(request: Request): ThemePreference {
  return cookieTheme(request.headers.get("cookie")) ?? DEFAULT_THEME;
}

/** The edge's endpoint the theme buttons post to without JavaScript (edge/internal/theme). */
export const THEME_ENDPOINT = "/api/v1/theme";
/** The class on <html> while a theme switch is drawn: no transitions then (theme.css). */
export const THEME_SWITCHING_CLASS = "theme-switching";
/** The window event after a button changed the preference: useTheme's store reads it again. */
const THEME_CHANGE_EVENT = "themechange";
const BUTTONS = `form[action="${THEME_ENDPOINT}"] button[name=theme]`;

/**
 * Blocking script for <head>, before any stylesheet: same rules as the
 * functions here (a test runs it against resolveTheme for every case). A
 * literal, not resolveTheme.toString(), so every build renders the same text.
 * 1. It sets the dark class before the first paint from the cookie (or the
 *    system's theme), and again when the system's theme or another tab's choice
 *    changes (with which theme button is pressed): the page follows them
 *    whether or not a component listens (the switcher is static markup).
 *    localStorage is read, and other tabs' changes to it listened for, only
 *    after the first frame: a page's first use of it (a storage listener too)
 *    opens the origin's storage, a wait of 1-12 ms on this machine's Chromium
 *    (more on a phone) that the first paint of a first visit, which has neither,
 *    need not make. The rare preference stored without its cookie (the cookie
 *    cleared alone) then applies a frame late, and writes the cookie back so
 *    the next page is rendered right.
 * 2. From then on it answers the theme buttons (components/theme-switcher.tsx),
 *    at the window, before the page below it hears of the press (KEEP):
 *    a left click stays on the page and sets the cookie (a year; "system", like
 *    any value but light or dark, is the system page), localStorage, the dark
 *    class and which button is pressed, then tells useTheme. The colours switch
 *    without transitions: each element that has one would otherwise start it
 *    in the tap's frame and restyle in every frame after it. Without JavaScript
 *    the buttons post their form to the edge.
 * Only the server renders it (root.tsx): the browser's bundle carries none of it.
 */
/**
 * The events of a press on a theme button that the theme script keeps from
 * the page below the window: the buttons are static markup with no React
 * handler, and React, seeing a press on a page it is still hydrating, would
 * finish the hydration in the press's own task first (93-115 ms on a slow
 * phone, before the page could darken). The script's own listeners, and
 * BOOT's (the visitor's first sign), are on the window and still hear them.
 */
const KEEP = "pointerdown pointerup pointercancel mousedown mouseup touchstart touchend touchcancel keydown keyup auxclick dblclick contextmenu";

export const themeScript = `(function(){var h=document.documentElement,s=${JSON.stringify(BUTTONS)},q="(prefers-color-scheme: dark)",r=0,w=function(p){document.cookie="${THEME_COOKIE}="+p+";path=/;max-age=31536000;samesite=lax"},u=function(){var p,c;try{c=document.cookie.match(${JSON.stringify(COOKIE_PATTERN.source)});p=c?c[1]:r?localStorage.getItem(${JSON.stringify(THEME_STORAGE_KEY)}):null}catch(e){}if(p!=="light"&&p!=="dark")p="system";else if(!c)w(p);try{h.classList.toggle("dark",p==="dark"||(p==="system"&&window.matchMedia(q).matches))}catch(e){}document.querySelectorAll(s).forEach(function(o){o.setAttribute("aria-pressed",o.value===p)})};u();requestAnimationFrame(function(){setTimeout(function(){r=1;u();addEventListener("storage",u)})});try{window.matchMedia(q).addEventListener("change",u)}catch(e){}${JSON.stringify(KEEP)}.split(" ").forEach(function(k){addEventListener(k,function(e){if(e.target.closest&&e.target.closest(s))e.stopPropagation()},true)});addEventListener("click",function(e){var b=e.target.closest&&e.target.closest(s);if(!b||e.defaultPrevented||e.button)return;e.stopPropagation();e.preventDefault();var p=b.value;w(p);try{localStorage.setItem(${JSON.stringify(THEME_STORAGE_KEY)},p)}catch(x){}h.classList.add("${THEME_SWITCHING_CLASS}");u();requestAnimationFrame(function(){setTimeout(function(){h.classList.remove("${THEME_SWITCHING_CLASS}")})});dispatchEvent(new Event("${THEME_CHANGE_EVENT}"))},true)})()`;

const DARK_QUERY = "(prefers-color-scheme: dark)";
const listeners = new Set<() => void>();

function isPreference(value: unknown): value is ThemePreference {
  return (THEME_PREFERENCES as readonly unknown[]).includes(value);
}

export function readPreference(): ThemePreference {
  const fromCookie = cookieTheme(document.cookie);
  if (fromCookie) return fromCookie;
  try {
    const stored = localStorage.getItem(THEME_STORAGE_KEY);
    if (isPreference(stored)) return stored;
  } catch {
    // storage blocked: the cookie (read first) holds the choice
  }
  return DEFAULT_THEME;
}

function systemPrefersDark(): boolean {
  return typeof window.matchMedia === "function" && window.matchMedia(DARK_QUERY).matches;
}

function readResolved(): ResolvedTheme {
  return resolveTheme(readPreference(), systemPrefersDark());
}

function applyTheme(): void {
  document.documentElement.classList.toggle("dark", readResolved() === "dark");
}

function notify(): void {
  applyTheme();
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  if (listeners.size === 0) {
    window.addEventListener("storage", onStorage);
    window.addEventListener(THEME_CHANGE_EVENT, notify);
    window.matchMedia?.(DARK_QUERY).addEventListener("change", notify);
  }
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      window.removeEventListener("storage", onStorage);
      window.removeEventListener(THEME_CHANGE_EVENT, notify);
      window.matchMedia?.(DARK_QUERY).removeEventListener("change", notify);
    }
  };
}

// Another tab changed the preference.
function onStorage(event: StorageEvent): void {
  if (event.key === THEME_STORAGE_KEY) notify();
}

/** The visitor's theme preference and what it resolves to (the buttons set it: themeScript). The server renders the theme cookie's (else "system"/"light"). */
export function useTheme(): { preference: ThemePreference; resolved: ResolvedTheme } {
  // The preference the server rendered with (the root loader's, from the cookie): the state until hydrated.
  const server = (useRouteLoaderData("root") as { theme?: ThemePreference } | undefined)?.theme ?? DEFAULT_THEME;
  const preference = useSyncExternalStore(subscribe, readPreference, () => server);
  const resolved = useSyncExternalStore(subscribe, readResolved, () => (server === "dark" ? "dark" : "light"));
  return { preference, resolved };
}
