import { describe, expect, it, vi } from "vitest";
import { DefaultLayout } from "./default";
import { layoutFor } from "./index";
import { InvertedNavLayout } from "./inverted-nav";
import { MinimalLayout } from "./minimal";

describe("layoutFor", () => {
  it("returns the layout of each known id without logging", () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    expect(layoutFor("default")).toBe(DefaultLayout);
    expect(layoutFor("minimal")).toBe(MinimalLayout);
    expect(layoutFor("inverted-nav")).toBe(InvertedNavLayout);
    expect(error).not.toHaveBeenCalled();
  });

  it("logs an unknown id as an error and falls back to the default layout", () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    expect(layoutFor("sidebar")).toBe(DefaultLayout);
    expect(error).toHaveBeenCalledTimes(1);
    expect(String(error.mock.calls[0][0])).toContain('"sidebar"');
  });

  it("does not treat Object.prototype names as layouts", () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    expect(layoutFor("toString")).toBe(DefaultLayout);
  });
});
