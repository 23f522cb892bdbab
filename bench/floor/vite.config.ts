import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

// The same client target as ssr/vite.config.ts; no Tailwind, no PWA, no site code.
// "~" as in ssr/: the site's entry.server.tsx (reused here) imports its nonce and critical-CSS helpers by it.
export default defineConfig({
  plugins: [reactRouter()],
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "..", "..", "ssr", "app") } },
  build: { target: "es2022" },
});
