// Colour theme (SPEC §2 Theme): the preference (system | light | dark, default
// system) is kept in localStorage under "color-schema" and, for the server, in
// the theme cookie (shared/http.json themeCookie: light or dark, absent for
// system); when it is dark, or system resolves to dark, <html> carries the
// `dark` class. The server renders the class from the cookie (root.tsx), so a
// page is right without JavaScript: the theme buttons are then a form posting
// to the edge (POST /api/v1/theme), which sets the cookie and sends the
// browser back. The inline script below sets the class before the first
// paint (the cookie first, then localStorage); after hydration this module's
// store keeps it in sync and the buttons set both.
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

/**
 * Blocking script for <head>, before any stylesheet: same rule as resolveTheme
 * (a test runs it against resolveTheme for every case). A literal, not
 * resolveTheme.toString(), so the server and client bundles render the same text.
 */
export const themeScript = `(function(){try{var c=document.cookie.match(${JSON.stringify(COOKIE_PATTERN.source)});var p=c?c[1]:localStorage.getItem(${JSON.stringify(THEME_STORAGE_KEY)});var d=p==="dark"||(p!=="light"&&window.matchMedia("(prefers-color-scheme: dark)").matches);document.documentElement.classList.toggle("dark",d)}catch(e){}})()`;

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

/** The theme cookie for the server's next render, kept a year ("system", like any value but light or dark, is the system page). */
function writeCookie(preference: ThemePreference): void {
  document.cookie = `${THEME_COOKIE}=${preference};path=/;max-age=31536000;samesite=lax`;
}

export function setThemePreference(preference: ThemePreference): void {
  writeCookie(preference);
  try {
    localStorage.setItem(THEME_STORAGE_KEY, preference);
  } catch {
    // storage blocked: the cookie holds the choice
  }
  notify();
}

function subscribe(listener: () => void): () => void {
  if (listeners.size === 0) {
    window.addEventListener("storage", onStorage);
    window.matchMedia?.(DARK_QUERY).addEventListener("change", notify);
  }
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      window.removeEventListener("storage", onStorage);
      window.matchMedia?.(DARK_QUERY).removeEventListener("change", notify);
    }
  };
}

// Another tab changed the preference.
function onStorage(event: StorageEvent): void {
  if (event.key === THEME_STORAGE_KEY) notify();
}

/** The visitor's theme preference, what it resolves to, and a setter. The server renders the theme cookie's (else "system"/"light"). */
export function useTheme(): {
  preference: ThemePreference;
  resolved: ResolvedTheme;
  setPreference: (preference: ThemePreference) => void;
} {
  // The preference the server rendered with (the root loader's, from the cookie): the state until hydrated.
  const server = (useRouteLoaderData("root") as { theme?: ThemePreference } | undefined)?.theme ?? DEFAULT_THEME;
  const preference = useSyncExternalStore(subscribe, readPreference, () => server);
  const resolved = useSyncExternalStore(subscribe, readResolved, () => (server === "dark" ? "dark" : "light"));
  return { preference, resolved, setPreference: setThemePreference };
}
