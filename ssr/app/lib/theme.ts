// Colour theme (SPEC §2 Theme): the preference (system | light | dark, default
// system) is kept in localStorage under "color-schema"; when it is dark, or
// system resolves to dark, <html> carries the `dark` class. The inline script
// below sets the class before the first paint; after hydration this module's
// store keeps it in sync.
import { useSyncExternalStore } from "react";
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

/**
 * Blocking script for <head>, before any stylesheet: same rule as resolveTheme
 * (a test runs it against resolveTheme for every case). A literal, not
 * resolveTheme.toString(), so the server and client bundles render the same text.
 */
export const themeScript = `(function(){try{var p=localStorage.getItem(${JSON.stringify(THEME_STORAGE_KEY)});var d=p==="dark"||(p!=="light"&&window.matchMedia("(prefers-color-scheme: dark)").matches);if(d)document.documentElement.classList.add("dark")}catch(e){}})()`;

const DARK_QUERY = "(prefers-color-scheme: dark)";
const listeners = new Set<() => void>();
// Used when localStorage is unavailable (e.g. blocked), so the switcher still works for the visit.
let memoryPreference: ThemePreference | null = null;

function isPreference(value: unknown): value is ThemePreference {
  return (THEME_PREFERENCES as readonly unknown[]).includes(value);
}

export function readPreference(): ThemePreference {
  try {
    const stored = localStorage.getItem(THEME_STORAGE_KEY);
    if (isPreference(stored)) return stored;
  } catch {
    // storage blocked: fall through to the in-memory choice
  }
  return memoryPreference ?? DEFAULT_THEME;
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

export function setThemePreference(preference: ThemePreference): void {
  memoryPreference = preference;
  try {
    localStorage.setItem(THEME_STORAGE_KEY, preference);
  } catch {
    // storage blocked: the in-memory choice holds for this visit
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

/** The visitor's theme preference, what it resolves to, and a setter. The server renders "system"/"light". */
export function useTheme(): {
  preference: ThemePreference;
  resolved: ResolvedTheme;
  setPreference: (preference: ThemePreference) => void;
} {
  const preference = useSyncExternalStore(subscribe, readPreference, () => DEFAULT_THEME);
  const resolved = useSyncExternalStore(subscribe, readResolved, () => "light" as const);
  return { preference, resolved, setPreference: setThemePreference };
}
