import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { compression } from "vite-plugin-compression2";
import { pwaPlugin } from "./pwa.config";

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [
    tailwindcss(),
    reactRouter(),
    // The edge serves build/client itself and picks the precompressed sibling
    // (.br, then .gz) from Accept-Encoding, so compress once at build time.
    !isSsrBuild &&
      compression({
        algorithms: ["brotliCompress", "gzip"],
        threshold: 1024,
        include: /\.(js|mjs|css|html|svg|json|webmanifest|xml|txt)$/,
        logLevel: "silent",
      }),
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
