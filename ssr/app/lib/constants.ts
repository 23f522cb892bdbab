// Business constants of SPEC §9 that the renderer uses. One place, no magic numbers.

/** Delay before a client navigation scrolls to a hash anchor (not on the first page shown). */
export const HASH_SCROLL_DELAY_MS = 500;

/** localStorage key of the colour-theme preference. */
export const THEME_STORAGE_KEY = "color-schema";

export const THEME_PREFERENCES = ["system", "light", "dark"] as const;
export type ThemePreference = (typeof THEME_PREFERENCES)[number];
export const DEFAULT_THEME: ThemePreference = "system";

/**
 * Default locale: `<html lang>`. The same as shared/content/site.json's
 * `locale`, which the edge's feeds read (constants.test.ts holds them
 * equal): written out here because importing site.json would put the whole
 * file into every page's first script.
 */
export const LOCALE = "en-US";

/** Client navigations shorter than this show no progress bar. */
export const PROGRESS_BAR_DELAY_MS = 150;

/** Fallback image shown, at the same size, when an image fails to load. */
export const PLACEHOLDER_IMAGE = "/images/placeholder.svg";

/** Canonical origin when PUBLIC_URL is not set. */
export const DEFAULT_PUBLIC_URL = "http://localhost:8080";

/** How long the installable app's 'offline-ready' note stays before it leaves on its own ('need-refresh' stays until answered). */
export const PWA_OFFLINE_READY_MS = 8_000;
