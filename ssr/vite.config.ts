import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";
import { pwaPlugin } from "./pwa.config";

/**
 * The browser needs only the id, layout, module, title, description and form of each route
 * (the layout around a page, its <head> tags after a client-side navigation, where its forms post);
 * (module: the demo pages' noindex); paths and cache policies serve the server and the edge. The client
 * bundle gets that slice of shared/routes.json: a third fewer bytes in a chunk
 * every page loads first.
 */
const SHELL = [
  "/app/lib/island.tsx",
  "/app/layouts/minimal.tsx",
  "/app/lib/meta.ts",
  "/app/lib/constants.ts",
  "/app/lib/route-entry.ts",
  "/app/lib/site.ts",
  "/app/components/ui/site-link.tsx",
  "/app/components/auth/google-button.tsx",
];

function clientRouteTable(): Plugin {
  // module: meta's noindex rule for the demo pages (lib/meta.ts isDemoRoute) runs on the client too.
  // form, layoutForm: where a form posts without JavaScript (lib/form-state.ts), the same on both sides.
  const keep = ({ id, layout, module, title, description, form }: Record<string, unknown>) => ({ id, layout, module, title, description, form });
  return {
    name: "omnibus:client-route-table",
    enforce: "pre",
    transform(code, id, options) {
      if (options?.ssr || !id.replace(/\?.*$/, "").endsWith("/shared/routes.json")) return;
      const table = JSON.parse(code);
      return { code: JSON.stringify({ notFound: keep(table.notFound), layoutForm: table.layoutForm, routes: table.routes.map(keep) }), map: null };
    },
  };
}

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [
    tailwindcss(),
    reactRouter(),
    clientRouteTable(),
    // Service worker and web app manifest (pwa.config.ts), client build only.
    !isSsrBuild && pwaPlugin(),
  ],
  resolve: {
    alias: { "~": path.resolve(import.meta.dirname, "app") },
  },
  server: {
    // shared/ (route table, content) lives next to ssr/.
    fs: { allow: [path.resolve(import.meta.dirname, "..")] },
  },
  build: {
    // The edge answers for assets; keep the client small and modern.
    target: "es2022",
    rollupOptions: isSsrBuild
      ? {}
      : {
          // Small modules that the root and most pages share go into one
          // chunk, "shell", rather than five files of a few hundred bytes
          // each (each compressed on its own, each a request).
          output: {
            // React, react-dom and React Router are named too, or Rollup would
            // pull them into "shell" (a manual chunk takes its dependencies),
            // and every change to the site's code would re-download them.
            manualChunks: (id: string) =>
              /\/node_modules\/(react|react-dom|react-router|scheduler)\//.test(id)
                ? "framework"
                : SHELL.some((part) => id.includes(part))
                  ? "shell"
                  : undefined,
          },
        },
  },
}));
