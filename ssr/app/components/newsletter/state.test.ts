import { describe, expect, it, vi } from "vitest";
import newsletter from "@omnibus/shared/content/newsletter.json";
import { initialState, returnPath, subscribe, SUBSCRIBE_URL } from "./state";

const messages = newsletter.messages;

function respond(status: number, body: unknown) {
  return vi.fn(async () => new Response(typeof body === "string" ? body : JSON.stringify(body), { status }));
}

describe("subscribe", () => {
  it("refuses an empty or blank address without a request", async () => {
    const fetcher = vi.fn();
    for (const email of ["", "  \t "]) {
      expect(await subscribe(email, messages, fetcher)).toEqual({ status: "error", message: "Please provide an email address" });
    }
    expect(fetcher).not.toHaveBeenCalled();
  });

  it("posts {emailaddress} as JSON with credentials, and 'Subscribed!' on success", async () => {
    const fetcher = respond(200, { data: { subscribed: true } });
    expect(await subscribe("ada@example.com", messages, fetcher)).toEqual({ status: "subscribed", message: "Subscribed!", pending: true });
    expect(fetcher).toHaveBeenCalledWith(SUBSCRIBE_URL, expect.objectContaining({ method: "POST", credentials: "include" }));
    const init = fetcher.mock.calls[0] as unknown as [string, RequestInit];
    expect(JSON.parse(init[1].body as string)).toEqual({ emailaddress: "ada@example.com" });
    expect((init[1].headers as Record<string, string>)["Content-Type"]).toBe("application/json");
  });

  it("does not read the success body", async () => {
    const fetcher = respond(200, "not json");
    expect((await subscribe("ada@example.com", messages, fetcher)).status).toBe("subscribed");
  });

  it("shows the server's errorDetail on failure", async () => {
    const fetcher = respond(400, { errorDetail: "Please enter a valid value" });
    expect(await subscribe("ada@example.com", messages, fetcher)).toEqual({ status: "error", message: "Please enter a valid value" });
  });

  it("falls back to a generic message when the failure has no errorDetail or the network fails", async () => {
    expect(await subscribe("ada@example.com", messages, respond(502, "<html>Bad gateway</html>"))).toEqual({
      status: "error",
      message: messages.unavailable,
    });
    const offline = vi.fn(async () => {
      throw new TypeError("Failed to fetch");
    });
    expect(await subscribe("ada@example.com", messages, offline)).toEqual({ status: "error", message: messages.unavailable });
  });
});

describe("initialState (the outcome of a post without JavaScript)", () => {
  const state = (query: string) => initialState(new URLSearchParams(query), messages);

  it("is idle without an outcome", () => {
    expect(state("")).toEqual({ status: "idle" });
    expect(state("x=1")).toEqual({ status: "idle" });
  });

  it("shows 'Subscribed!' or the message of a known reason code", () => {
    expect(state("newsletter=subscribed")).toEqual({ status: "subscribed", message: "Subscribed!", pending: true });
    expect(state("newsletter=error&reason=empty")).toEqual({ status: "error", message: "Please provide an email address" });
    expect(state("newsletter=error&reason=invalid")).toEqual({ status: "error", message: "Please enter a valid email address, like you@yourstore.com." });
  });

  it("never echoes an unknown reason, nor inherited object keys", () => {
    for (const reason of ["<b>call us</b>", "toString", "__proto__", "subscribed", ""]) {
      expect(state(`newsletter=error&reason=${encodeURIComponent(reason)}`)).toEqual({ status: "error", message: messages.unavailable });
    }
  });
});

describe("returnPath", () => {
  it("keeps the page's path and query without a previous outcome", () => {
    expect(returnPath("/features", new URLSearchParams("newsletter=error&reason=empty&tab=ai"))).toBe("/features?tab=ai");
    expect(returnPath("/", new URLSearchParams("newsletter=subscribed"))).toBe("/");
  });
});
