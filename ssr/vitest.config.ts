import path from "node:path";
import { defineConfig } from "vitest/config";
import { routeCopy } from "./route-table-plugins";

export default defineConfig({
  // Route modules import their titles from virtual:route-copy.
  plugins: [routeCopy()],
  resolve: {
    alias: { "~": path.resolve(import.meta.dirname, "app") },
  },
  test: {
    environment: "jsdom",
    // `?raw` CSS (the catalogue parses the design tokens from it) is the file's text, not blanked
    // like other CSS when processing is off (vitest-dev/vitest#10788).
    css: { include: [/\.css\?raw$/] },
    include: ["app/**/*.test.{ts,tsx}"],
    restoreMocks: true,
    setupFiles: ["./vitest.setup.ts"],
    // Rendering whole pages in jsdom is slow on a busy 2-core machine; fail on real hangs only.
    testTimeout: 20_000,
  },
});
