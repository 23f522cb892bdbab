// The installable app (SPEC §2): vite-plugin-pwa generates the service worker
// /sw.js (scope /) with Workbox from the client build, and the web app
// manifest. The service worker precaches the shell (hashed JS/CSS, the
// offline page, icons) and answers page navigations network-first, falling
// back to the last copy it saw, then to /offline.html (in the site's theme); client-side navigations'
// data requests likewise (navigation keeps working offline). It waits for the
// visitor's 'Reload' before taking over (app/components/pwa/pwa-prompt.tsx),
// and the edge serves /sw.js with Cache-Control: no-cache so updates are seen.
import { VitePWA } from "vite-plugin-pwa";
import pwa from "@omnibus/shared/content/pwa.json" with { type: "json" };
import names from "@omnibus/shared/http.json" with { type: "json" };

/**
 * Workbox plugin for page navigations: when both the network and the page
 * cache fail, the precached offline page, in the theme the visitor chose on
 * the site (the theme cookie, read through the Cookie Store API where the
 * browser gives it to workers, as Chromium does), else the system's. The
 * page itself cannot run a script under the CSP. Workbox copies plugin
 * functions into sw.js as source text, so the cookie's name is written
 * into that text here rather than captured.
 */
function offlinePageInSiteTheme() {
  const source = `return async function handlerDidError() {
    const page = await caches.match("/offline.html", { ignoreSearch: true });
    if (!page) return undefined;
    let theme = "";
    try {
      const cookie = self.cookieStore ? await self.cookieStore.get(${JSON.stringify(names.themeCookie)}) : null;
      theme = cookie ? cookie.value : "";
    } catch (e) {
      theme = "";
    }
    if (theme !== "dark" && theme !== "light") return page;
    const html = (await page.text()).replace("<html ", '<html data-theme="' + theme + '" ');
    return new Response(html, { status: 200, headers: page.headers });
  }`;
  return { handlerDidError: new Function(source)() as () => Promise<Response | undefined> };
}

export function pwaPlugin() {
  return VitePWA({
    strategies: "generateSW",
    registerType: "prompt",
    // The app registers the worker itself with workbox-window after hydration.
    injectRegister: false,
    filename: "sw.js",
    scope: "/",
    base: "/",
    manifestFilename: "manifest.webmanifest",
    manifest: {
      ...pwa.manifest,
      id: "/",
      start_url: "/",
      scope: "/",
      display: "standalone",
      icons: [
        { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
        { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
        { src: "/icons/maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
      ],
    },
    workbox: {
      globPatterns: [
        "assets/**/*.{js,css}",
        "offline.{html,css}",
        "favicon.{png,webp}",
        "icons/*.png",
        "images/placeholder.svg",
      ],
      // No single-page shell to fall back to: pages are rendered on the server.
      navigateFallback: null,
      cleanupOutdatedCaches: true,
      skipWaiting: false,
      clientsClaim: false,
      runtimeCaching: [
        {
          urlPattern: ({ request, url }) => request.mode === "navigate" && !url.pathname.startsWith("/api/"),
          handler: "NetworkFirst",
          options: {
            cacheName: "pages",
            networkTimeoutSeconds: 5,
            expiration: { maxEntries: 50, maxAgeSeconds: 7 * 24 * 60 * 60 },
            plugins: [offlinePageInSiteTheme()],
          },
        },
        {
          // React Router's data requests of client-side navigations (/features.data):
          // a page visited that way opens offline from here, with its route chunk
          // from the precache. (One only ever loaded as a document is reloaded by
          // the root's error boundary, and then comes from the "pages" cache.)
          urlPattern: ({ request, url, sameOrigin }) => sameOrigin && request.method === "GET" && url.pathname.endsWith(".data"),
          handler: "NetworkFirst",
          options: {
            cacheName: "page-data",
            networkTimeoutSeconds: 5,
            expiration: { maxEntries: 50, maxAgeSeconds: 7 * 24 * 60 * 60 },
          },
        },
        {
          urlPattern: ({ url }) => url.pathname.startsWith("/images/"),
          handler: "StaleWhileRevalidate",
          options: { cacheName: "images", expiration: { maxEntries: 80 } },
        },
      ],
    },
  });
}
