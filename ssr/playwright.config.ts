// Browser tests: Debian's Chromium against the real edge binary, which starts
// the production renderer (npm run build -w ssr and make build-edge first;
// `make test-browser` does both).
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";

// E2E_PORT / E2E_RENDERER_PORT: run beside another copy of the suite.
const PORT = Number(process.env.E2E_PORT ?? 8091);
const RENDERER_PORT = process.env.E2E_RENDERER_PORT ?? "3091";
const baseURL = `http://127.0.0.1:${PORT}`;
const ssrDir = import.meta.dirname;
// One throw-away data directory per run (workers inherit it through the environment).
process.env.OMNIBUS_E2E_DATA_DIR ??= mkdtempSync(path.join(os.tmpdir(), "omnibus-e2e-"));

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  fullyParallel: true,
  workers: 2,
  forbidOnly: !!process.env.CI,
  // No retries, in CI too: a test that passes only on its second try is a
  // flake, and a flake is fixed at its cause, not hidden behind a green run.
  retries: 0,
  timeout: 30_000,
  // The JSON report (make test-browser sets its file) is for make test-times.
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_FILE ? [["list"], ["json"]] : [["list"]],
  use: {
    baseURL,
    browserName: "chromium",
    launchOptions: {
      executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
    },
    // The service worker (and its 'offline-ready' prompt) only where a test
    // asks for it (e2e/pwa.spec.ts): elsewhere it would cache pages between
    // requests and its prompt could cover what a test clicks.
    serviceWorkers: "block",
    screenshot: "only-on-failure",
    // Not recorded: recording every test (DOM snapshots and screencast frames)
    // costs about a tenth of the suite's CPU time. To read a failure's trace,
    // run its spec again with `npx playwright test --trace on <spec>`.
    trace: "off",
  },
  webServer: {
    command: path.join(ssrDir, "..", "edge", "bin", "edge"),
    cwd: path.join(ssrDir, "..", "edge"),
    url: `${baseURL}/healthz`,
    timeout: 120_000,
    reuseExistingServer: false,
    gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
    stdout: "ignore",
    stderr: "pipe",
    env: {
      // A development edge: test-mode payments, the local sign-in provider,
      // mail in the outbox. Production (the default) refuses all three.
      OMNIBUS_ENV: "development",
      LISTEN_ADDR: `127.0.0.1:${PORT}`,
      RENDERER_PORT,
      DATA_DIR: process.env.OMNIBUS_E2E_DATA_DIR,
      // E2E_SSR_DIR: a copy of server.js + build/ to test while the tree is being rebuilt.
      SSR_DIR: process.env.E2E_SSR_DIR ?? ssrDir,
      PUBLIC_URL: baseURL,
      // The embedded SQLite in the temp dir, even where CI sets DATABASE_URL.
      DATABASE_URL: "",
      // Warnings and errors only: an access-log line per request made the
      // run's output thousands of lines long (stderr is piped to it).
      LOG_LEVEL: "warn",
    },
  },
});
