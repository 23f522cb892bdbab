// Server-only: the renderer's structured logger (pino, one JSON object per
// line on stdout) and the per-request context it reads. Every line written
// while a request is being handled carries that request's id (the header
// named in shared/http.json, set by the edge), so the renderer's lines join
// the edge's access log on request_id.
import { AsyncLocalStorage } from "node:async_hooks";
import pino, { type Level } from "pino";
import { REQUEST_ID_HEADER } from "./http-names";

/** What the renderer knows about the request in hand. */
export type RequestInfo = { requestId?: string; route?: string };

// One store per process, even if this module is loaded twice (server.js
// reaches it through the server build; Vite's dev server may load its own copy).
const STORE = Symbol.for("omnibus.renderer.request");
const holder = globalThis as { [STORE]?: AsyncLocalStorage<RequestInfo> };
export const requestInfo: AsyncLocalStorage<RequestInfo> = (holder[STORE] ??= new AsyncLocalStorage<RequestInfo>());

const LEVELS: Level[] = ["trace", "debug", "info", "warn", "error", "fatal"];

/** LOG_LEVEL (the edge's variable, passed on to the renderer), else info. */
export function logLevel(env: NodeJS.ProcessEnv = process.env): Level {
  const level = env.LOG_LEVEL?.trim().toLowerCase();
  return LEVELS.find((l) => l === level) ?? "info";
}

export const log = pino({
  level: logLevel(),
  base: { service: "renderer" },
  messageKey: "msg",
  timestamp: pino.stdTimeFunctions.isoTime,
  formatters: { level: (label) => ({ level: label }) },
  mixin() {
    const id = requestInfo.getStore()?.requestId;
    return id ? { request_id: id } : {};
  },
});

/** An error's message for a log line (err objects are serialised with their stack). */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The request id header for the renderer's calls to the edge's API, so the edge logs them under the page's id. */
export function requestIdHeaders(): Record<string, string> {
  const id = requestInfo.getStore()?.requestId;
  return id ? { [REQUEST_ID_HEADER]: id } : {};
}
