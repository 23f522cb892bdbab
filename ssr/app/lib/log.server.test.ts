// @vitest-environment node
import { describe, expect, it } from "vitest";
import { REQUEST_ID_HEADER } from "./http-names";
import { logLevel, requestIdHeaders, requestInfo } from "./log.server";
import { registry, observeRender } from "./metrics.server";

describe("renderer logging", () => {
  it("takes LOG_LEVEL when it is a level, else info", () => {
    expect(logLevel({ LOG_LEVEL: "debug" })).toBe("debug");
    expect(logLevel({ LOG_LEVEL: "WARN" })).toBe("warn");
    expect(logLevel({ LOG_LEVEL: "verbose" })).toBe("info");
    expect(logLevel({})).toBe("info");
  });

  it("passes the request id on to the edge's API only inside a request", async () => {
    expect(requestIdHeaders()).toEqual({});
    const inside = await requestInfo.run({ requestId: "abc-123" }, async () => {
      await Promise.resolve(); // survives awaits, as in a loader
      return requestIdHeaders();
    });
    expect(inside).toEqual({ [REQUEST_ID_HEADER]: "abc-123" });
  });
});

describe("renderer metrics", () => {
  it("records render time by route id and status class, with the event-loop lag", async () => {
    observeRender("home", 200, 0.05);
    observeRender(undefined, 404, 0.01);
    const text = await registry.metrics();
    expect(text).toContain('omnibus_renderer_request_duration_seconds_count{route="home",status="2xx"} 1');
    expect(text).toContain('omnibus_renderer_request_duration_seconds_count{route="other",status="4xx"} 1');
    expect(text).toContain("omnibus_renderer_nodejs_eventloop_lag_seconds");
  });
});
