import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { pwaPlugin } from "./pwa.config";
import { clientRouteTable, routeCopy } from "./route-table-plugins";

const SHELL = [
  "/app/lib/island.tsx",
  "/app/layouts/minimal.tsx",
  "/app/lib/meta.ts",
  "/app/lib/constants.ts",
  "/app/lib/near-images.ts",
  "/app/lib/route-entry.ts",
  "/app/lib/site.ts",
  "/app/components/ui/site-link.tsx",
  "/app/components/auth/google-button.tsx",
  "/app/lib/static-markup.tsx",
  "/app/lib/boundary.tsx",
  "/app/components/footer/footer-boxes.ts",
];

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [
    tailwindcss(),
    reactRouter(),
    // The browser's slice of shared/routes.json, and each route module's own titles (route-table-plugins.ts).
    clientRouteTable(),
    routeCopy(),
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
