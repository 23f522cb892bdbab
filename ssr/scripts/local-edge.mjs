// The built edge on loopback with its renderer child (SSR_DIR) and a
// throw-away SQLite: what make lighthouse and the main-thread profile
// (scripts/profile.mjs) measure. Not for tests (e2e/local-edge.ts is theirs).
import { spawn } from "node:child_process";
import { mkdtempSync, openSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const rootDir = path.join(import.meta.dirname, "..", "..");

export async function waitFor(url, ms) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer within ${ms / 1000}s`);
}

/** Starts the edge on port (its renderer on port - 5000) serving ssrAppDir; stderr goes to logFile. */
export async function startEdge(port, ssrAppDir, logFile, env = {}) {
  const origin = `http://127.0.0.1:${port}`;
  if (await fetch(`${origin}/healthz`).then(() => true, () => false)) throw new Error(`${origin} already answers: choose another port`);
  const edge = spawn(path.join(rootDir, "edge", "bin", "edge"), [], {
    cwd: path.join(rootDir, "edge"),
    env: {
      ...process.env,
      OMNIBUS_ENV: "development",
      LISTEN_ADDR: `127.0.0.1:${port}`,
      RENDERER_PORT: String(port - 5000),
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "omnibus-measure-")),
      SSR_DIR: ssrAppDir,
      // Canonical links must name the measured origin.
      PUBLIC_URL: origin,
      DATABASE_URL: "",
      ...env,
    },
    // Its access log would drown the report: keep it beside it.
    stdio: ["ignore", "ignore", openSync(logFile, "w")],
  });
  await waitFor(`${origin}/healthz`, 60_000);
  await waitFor(`${origin}/readyz`, 60_000);
  return { edge, origin };
}

export async function stop(edge) {
  if (!edge || edge.exitCode !== null) return;
  edge.kill("SIGTERM");
  await new Promise((r) => edge.once("exit", r));
}
