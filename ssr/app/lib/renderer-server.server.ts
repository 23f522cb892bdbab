// Server-only: what ssr/server.js takes from the server build (through
// entry.server.tsx's exports, so the renderer image needs no file beyond
// server.js and build/): the logger, the per-request middleware and the
// metrics listener; the preview card's drawing for the edge.
import { AsyncResource } from "node:async_hooks";
import type { NextFunction, Request, Response } from "express";
import { REQUEST_ID_HEADER } from "./http-names";
import { log, requestInfo, type RequestInfo } from "./log.server";
import { observeRender, serveMetrics } from "./metrics.server";

export { log, serveMetrics };
export { CARD_PATH, cardEndpoint } from "./og-card.server";

/**
 * Express middleware: runs the rest of the request inside its RequestInfo
 * (the edge's request id; the route id, filled in by entry.server.tsx),
 * records its duration when the answer ends and logs it: one line per
 * request at info, with the edge's request id (the on-call engineer follows
 * a request from the edge's access line to its render).
 */
export function withRequest(req: Request, res: Response, next: NextFunction) {
  const id = req.get(REQUEST_ID_HEADER);
  const info: RequestInfo = { requestId: id || undefined, route: req.path.endsWith(".data") ? "data" : undefined };
  const start = process.hrtime.bigint();
  requestInfo.run(info, () => {
    // Bound to this request's context: "close" is emitted from the socket's.
    res.once("close", AsyncResource.bind(() => {
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      observeRender(info.route, res.statusCode, seconds);
      log.info({ method: req.method, path: req.path, route: info.route, status: res.statusCode, ms: Math.round(seconds * 1000) }, "render");
    }));
    next();
  });
}

/** Notes the matched route id of the request in hand (entry.server.tsx). */
export function setRoute(route: string | undefined) {
  const info = requestInfo.getStore();
  if (info && route) info.route = route;
}
