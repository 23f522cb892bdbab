import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: { "~": path.resolve(import.meta.dirname, "app") },
  },
  test: {
    environment: "jsdom",
    include: ["app/**/*.test.{ts,tsx}"],
    restoreMocks: true,
    // Rendering whole pages in jsdom is slow on a busy 2-core machine; fail on real hangs only.
    testTimeout: 20_000,
  },
});
