// An edge of a suite's own, started the way `make run` starts one, beside
// the local OpenID provider (devtools/cmd/oidcdev, whose every sign-in is
// jane.doe@example.com): for the suites that need Google sign-in configured,
// which the shared e2e edge (playwright.config.ts) is not. One set-up for
// auth.spec.ts and journey.spec.ts.
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

const root = path.join(import.meta.dirname, "..", "..");

/** Polls url until it answers 2xx, or throws once deadline (ms since the epoch) has passed. */
export async function waitFor(url: string, deadline: number) {
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) throw new Error(`${url} did not come up`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** A loopback port free right now (an edge or its renderer binds it next). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer().once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export interface LocalEdge {
  origin: string;
  issuer: string;
  stop(): void;
}

/**
 * Builds and starts the local OpenID provider on oidcAddr and an edge on
 * port (its renderer on rendererPort; each a free port unless given) with a
 * fresh SQLite directory, signing in with Google through that provider. The
 * edge's address is http://<host>:<port> (127.0.0.1 unless given:
 * "localhost" where a passkey needs a domain name) and its renderer runs the
 * suite's build (E2E_SSR_DIR, as the shared e2e edge's). env adds to or
 * overrides the edge's environment. Resolves once both answer.
 */
export async function startLocalEdge(
  opts: {
    port?: number;
    rendererPort?: string;
    oidcAddr?: string;
    host?: string;
    clientId?: string;
    clientSecret?: string;
    env?: Record<string, string>;
  } = {},
): Promise<LocalEdge> {
  const { clientId = "dev-client", clientSecret = "dev-secret" } = opts;
  const port = opts.port ?? (await freePort());
  const rendererPort = opts.rendererPort ?? String(await freePort());
  const oidcAddr = opts.oidcAddr ?? `127.0.0.1:${await freePort()}`;
  const origin = `http://${opts.host ?? "127.0.0.1"}:${port}`;
  const issuer = `http://${oidcAddr}/oidc`;
  const children: ChildProcess[] = [];
  const bin = path.join(mkdtempSync(path.join(os.tmpdir(), "omnibus-oidcdev-")), "oidcdev");
  execFileSync("go", ["build", "-o", bin, "./cmd/oidcdev"], { cwd: path.join(root, "devtools"), stdio: "inherit" });
  children.push(spawn(bin, ["-addr", oidcAddr, "-client-id", clientId, "-client-secret", clientSecret], { stdio: "ignore" }));
  const edgeDir = path.join(root, "edge");
  children.push(
    spawn(path.join(edgeDir, "bin", "edge"), [], {
      cwd: edgeDir,
      stdio: "ignore",
      env: {
        ...process.env,
        OMNIBUS_ENV: "development",
        LISTEN_ADDR: `127.0.0.1:${port}`,
        RENDERER_PORT: rendererPort,
        DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "omnibus-e2e-edge-")),
        SSR_DIR: process.env.E2E_SSR_DIR || path.join(root, "ssr"),
        PUBLIC_URL: origin,
        DATABASE_URL: "",
        GOOGLE_CLIENT_ID: clientId,
        GOOGLE_CLIENT_SECRET: clientSecret,
        GOOGLE_ISSUER_URL: issuer,
        ...opts.env,
      },
    }),
  );
  const stop = () => {
    for (const c of children) c.kill("SIGTERM");
  };
  try {
    const deadline = Date.now() + 120_000;
    await waitFor(`${issuer}/.well-known/openid-configuration`, deadline);
    await waitFor(`${origin}/login`, deadline);
  } catch (e) {
    stop();
    throw e;
  }
  return { origin, issuer, stop };
}
