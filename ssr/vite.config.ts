import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { pwaPlugin } from "./pwa.config";

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [
    tailwindcss(),
    reactRouter(),
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
  },
}));
