// Server-only: the renderer's own Prometheus metrics (prom-client): render
// time by route and Node's runtime (event-loop lag, heap, GC), served on a
// loopback port of their own (METRICS_PORT, set by the edge only when it
// serves metrics). The edge's METRICS_ADDR scrape fetches them from there;
// the renderer's page port, which the edge proxies, never serves them.
import { createServer, type Server } from "node:http";
import { Histogram, Registry, collectDefaultMetrics } from "prom-client";

export const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: "omnibus_renderer_" });

const renderSeconds = new Histogram({
  name: "omnibus_renderer_request_duration_seconds",
  help: "Time the renderer took to answer, to the last byte, by route id (shared/routes.json) and status class.",
  labelNames: ["route", "status"],
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [registry],
});

/**
 * Records one answer. route is the matched route id ("data" for React
 * Router data requests, "other" when none was matched): bounded by the route table.
 */
export function observeRender(route: string | undefined, status: number, seconds: number) {
  renderSeconds.observe({ route: route ?? "other", status: `${Math.floor(status / 100)}xx` }, seconds);
}

/**
 * Serves GET /metrics on host:port (loopback unless the renderer is its own
 * container). While the port is taken (the edge's standby renderer starts
 * beside the one it will replace) it tries again every second.
 */
export function serveMetrics(port: number, host = "127.0.0.1"): Server {
  const server = createServer(async (req, res) => {
    if (req.method !== "GET" || req.url !== "/metrics") {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "Content-Type": registry.contentType }).end(await registry.metrics());
  });
  server.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code === "EADDRINUSE") setTimeout(() => server.listen(port, host), 1000).unref();
  });
  return server.listen(port, host);
}
