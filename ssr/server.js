// The renderer's HTTP server. It listens on loopback only: the edge is the
// public listener, serves the built assets and proxies page requests here.
//
//   node server.js          production: renders with build/server, no static files
//   node server.js --dev    development: Vite dev server middleware (hot reload) serves everything
//
// Environment: PORT (default 3001), API_URL, PUBLIC_URL, NODE_ENV, and
// LISTEN_HOST (default 127.0.0.1: the edge's child, or a container sharing the
// edge's pod). docker-compose.yml sets 0.0.0.0: there the renderer is its own
// container on the private compose network, never published.
import { createRequestHandler } from "@react-router/express";
import express from "express";

const DEV = process.argv.includes("--dev");
const PORT = Number(process.env.PORT ?? 3001);
const HOST = process.env.LISTEN_HOST || "127.0.0.1";
/** How long in-flight requests may take to finish after SIGTERM. */
const DRAIN_TIMEOUT_MS = 10_000;

const app = express();
app.disable("x-powered-by");
// Only the edge on loopback talks to us: believe its X-Forwarded-* headers
// (req.ip, req.protocol, the request URL's host) and nobody else's.
// On a private container network (LISTEN_HOST set) the edge is another
// container there: trust private addresses too, still never the public.
app.set("trust proxy", HOST === "127.0.0.1" ? "loopback" : ["loopback", "uniquelocal"]);

app.get("/__renderer/health", (_req, res) => {
  res.set("Cache-Control", "no-store").json({ status: "ok" });
});

if (DEV) {
  const vite = await import("vite");
  const devServer = await vite.createServer({ server: { middlewareMode: true } });
  app.use(devServer.middlewares);
  app.use(
    createRequestHandler({
      build: () => devServer.ssrLoadModule("virtual:react-router/server-build"),
      mode: "development",
    }),
  );
} else {
  const build = await import("./build/server/index.js");
  app.use(createRequestHandler({ build, mode: process.env.NODE_ENV ?? "production" }));
}

const server = app.listen(PORT, HOST, () => {
  console.log(`renderer listening on http://${HOST}:${PORT}${DEV ? " (dev)" : ""}`);
});
// Behind the edge's keep-alive pool: keep idle connections longer than the edge does.
server.keepAliveTimeout = 65_000;

function shutdown(signal) {
  console.log(`renderer: ${signal}, draining`);
  server.close(() => process.exit(0));
  server.closeIdleConnections();
  setTimeout(() => {
    console.error("renderer: drain timeout, exiting");
    process.exit(1);
  }, DRAIN_TIMEOUT_MS).unref();
}
process.on("SIGTERM", () => shutdown("SIGTERM"));
process.on("SIGINT", () => shutdown("SIGINT"));
