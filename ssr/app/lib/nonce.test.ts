import { describe, expect, it } from "vitest";
import { NONCE_HEADER } from "./http-names";
import { requestNonce } from "./nonce";

describe("requestNonce", () => {
  it("takes the edge's nonce from its header", () => {
    expect(requestNonce(new Headers({ [NONCE_HEADER]: "q2v3-Lx_9aBcDeFgHiJkLm" }))).toBe("q2v3-Lx_9aBcDeFgHiJkLm");
  });
  it("ignores a missing or malformed one (never echoed into an attribute)", () => {
    expect(requestNonce(new Headers())).toBeUndefined();
    expect(requestNonce(new Headers({ [NONCE_HEADER]: 'abcdefghijklmnop"><script>' }))).toBeUndefined();
    expect(requestNonce(new Headers({ [NONCE_HEADER]: "short" }))).toBeUndefined();
  });
});
