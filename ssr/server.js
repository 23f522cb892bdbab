// The renderer's HTTP server. It listens on loopback only: the edge is the
// public listener, serves the built assets and proxies page requests here.
//
//   node server.js          production: renders with build/server, no static files
//   node server.js --dev    development: Vite dev server middleware (hot reload) serves everything
//
// Environment: PORT (default 3001), PUBLIC_URL, NODE_ENV, DRAIN_PERIOD
// (how long SIGTERM keeps serving, unready, before closing: "5s" by default,
// "0s" when the edge supervises this process, as it has drained first), and
// LISTEN_HOST (default 127.0.0.1: the edge's child, or a container sharing the
// edge's pod). docker-compose.yml sets 0.0.0.0: there the renderer is its own
// container on the private compose network, never published.
// METRICS_PORT: Prometheus metrics on HOST:METRICS_PORT (unset: none); the
// edge fetches them into its own METRICS_ADDR scrape. LOG_LEVEL: the log's level.
//
// Logs are JSON lines (pino) carrying the edge's request id; the logger, the
// request middleware and the metrics come from the server build's entry
// (app/lib/renderer-server.server.ts), so nothing beyond server.js and build/ is needed.
import { createServer } from "node:http";
import { createRequestHandler } from "@react-router/express";
import express from "express";

const DEV = process.argv.includes("--dev");
const PORT = Number(process.env.PORT ?? 3001);
const HOST = process.env.LISTEN_HOST || "127.0.0.1";
/** How long in-flight requests may take to finish after the drain period. */
const DRAIN_TIMEOUT_MS = 10_000;
/** How long SIGTERM keeps serving (unready, closing keep-alive connections). */
const DRAIN_PERIOD_MS = durationMs(process.env.DRAIN_PERIOD ?? "5s");

/** "5s", "500ms", "1m" or "0" in milliseconds (Go's duration units, as the edge's DRAIN_PERIOD). */
function durationMs(v) {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(v.trim());
  if (!m || (m[2] === undefined && Number(m[1]) !== 0)) {
    console.error(`DRAIN_PERIOD: want a duration such as 5s or 500ms, got ${JSON.stringify(v)}`);
    process.exit(2);
  }
  return Number(m[1]) * ({ ms: 1, s: 1000, m: 60_000 }[m[2] ?? "ms"]);
}
let draining = false;

const app = express();
app.disable("x-powered-by");
// Only the edge on loopback talks to us: believe its X-Forwarded-* headers
// (req.ip, req.protocol, the request URL's host) and nobody else's.
// On a private container network (LISTEN_HOST set) the edge is another
// container there: trust private addresses too, still never the public.
app.set("trust proxy", HOST === "127.0.0.1" ? "loopback" : ["loopback", "uniquelocal"]);

// While draining, every answer ends its keep-alive connection (Node closes
// it once the answer is sent).
app.use((req, res, next) => {
  if (draining) res.set("Connection", "close");
  next();
});

app.get("/__renderer/health", (req, res) => {
  // The edge's own probe comes straight here; anything it proxied (it always
  // sets X-Forwarded-For) came from outside, which must not see this.
  if (req.get("x-forwarded-for")) return res.status(404).end();
  res.set("Cache-Control", "no-store");
  if (draining) return res.status(503).json({ status: "draining", errorDetail: "Not ready: shutting down" });
  res.json({ status: "ok" });
});

let runtime;
if (DEV) {
  const vite = await import("vite");
  const devServer = await vite.createServer({ server: { middlewareMode: true } });
  runtime = await devServer.ssrLoadModule("/app/lib/renderer-server.server.ts");
  app.use(runtime.withRequest);
  // The edge's own request for an article's preview card (app/lib/og-card.server.ts).
  app.all(runtime.CARD_PATH, runtime.cardEndpoint);
  app.use(devServer.middlewares);
  app.use(
    createRequestHandler({
      build: () => devServer.ssrLoadModule("virtual:react-router/server-build"),
      mode: "development",
    }),
  );
} else {
  const build = await import("./build/server/index.js");
  runtime = build.entry.module;
  app.use(runtime.withRequest);
  app.all(runtime.CARD_PATH, runtime.cardEndpoint);
  app.use(createRequestHandler({ build, mode: process.env.NODE_ENV ?? "production" }));
}
const { log } = runtime;

// Request heads up to 2 MB (Node's default is 16 KB): the edge bounds a
// visitor's head at 14 KB and adds what the page shows: the state of a
// refused form post (shared/http.json's formStateHeader; the studio's
// editor keeps a whole article typed), a content page's content
// (contentHeader, at most 256 KB: edge/internal/content
// MaxContentHeaderBytes), a studio page's data (studioHeader, at most
// 900 KB, edge/internal/studiopages). Only the edge reaches the renderer
// (loopback), so no visitor can send a head this size.
const server = createServer({ maxHeaderSize: 2 << 20 }, app).listen(PORT, HOST, () => {
  log.info({ dev: DEV }, `renderer listening on http://${HOST}:${PORT}`);
});
if (process.env.METRICS_PORT) {
  const metricsPort = Number(process.env.METRICS_PORT);
  runtime
    .serveMetrics(metricsPort, HOST)
    .on("listening", () => log.info(`renderer metrics on http://${HOST}:${metricsPort}/metrics`))
    .on("error", (err) => {
      if (err.code !== "EADDRINUSE") log.error({ err }, "renderer metrics: cannot listen; serving pages without them");
    });
}
// Behind the edge's keep-alive pool: keep idle connections longer than the edge does.
server.keepAliveTimeout = 65_000;

// SIGTERM: unready at once (health 503) but still serving for DRAIN_PERIOD,
// each answer closing its connection; then stop accepting, finish what is in
// flight (up to DRAIN_TIMEOUT_MS) and exit.
function shutdown(signal) {
  if (draining) return;
  draining = true;
  log.info({ drainPeriodMs: DRAIN_PERIOD_MS }, `renderer: ${signal}, draining`);
  setTimeout(() => {
    server.close(() => process.exit(0));
    server.closeIdleConnections();
    setTimeout(() => {
      log.error("renderer: drain timeout, exiting");
      process.exit(1);
    }, DRAIN_TIMEOUT_MS).unref();
  }, DRAIN_PERIOD_MS);
}
process.on("SIGTERM", () => shutdown("SIGTERM"));
process.on("SIGINT", () => shutdown("SIGINT"));
