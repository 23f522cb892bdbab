// @vitest-environment node
import { EventEmitter } from "node:events";
import type { NextFunction, Request, Response } from "express";
import { afterEach, describe, expect, it, vi } from "vitest";
import { REQUEST_ID_HEADER } from "./http-names";
import { log, requestInfo } from "./log.server";
import { withRequest } from "./renderer-server.server";

describe("renderer request log", () => {
  afterEach(() => vi.restoreAllMocks());

  it("logs one line per request at info, with the edge's request id", () => {
    const lines: unknown[][] = [];
    vi.spyOn(log, "info").mockImplementation(((...args: unknown[]) => {
      // The logger's mixin adds the request id of the request in hand.
      lines.push([...args, requestInfo.getStore()?.requestId]);
    }) as typeof log.info);
    const req = { path: "/pricing", method: "GET", get: (h: string) => (h === REQUEST_ID_HEADER ? "req-42" : undefined) } as unknown as Request;
    const res = Object.assign(new EventEmitter(), { statusCode: 200 }) as unknown as Response;
    withRequest(req, res, (() => {}) as NextFunction);
    (res as unknown as EventEmitter).emit("close");
    expect(lines).toHaveLength(1);
    expect(lines[0][0]).toMatchObject({ method: "GET", path: "/pricing", status: 200 });
    expect(lines[0][1]).toBe("render");
    expect(lines[0][2]).toBe("req-42");
  });
});
