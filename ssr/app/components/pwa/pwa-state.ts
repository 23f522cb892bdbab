/** What the service worker has to say: the site works offline, or a new version waits. */
export type PwaState = "offline-ready" | "need-refresh" | null;
