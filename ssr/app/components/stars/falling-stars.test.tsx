import { cleanup, render } from "@testing-library/react";
import { renderToString } from "react-dom/server";
import { afterEach, describe, expect, it } from "vitest";
import { FallingStars, makeStars, STAR_COUNT } from "./falling-stars";

afterEach(cleanup);

describe("falling stars", () => {
  it("are exactly 40 (SPEC §9)", () => {
    expect(STAR_COUNT).toBe(40);
    const { container } = render(<FallingStars />);
    expect(container.querySelectorAll(".falling-star")).toHaveLength(40);
  });

  it("are placed the same way on every render, so the server and the client agree", () => {
    expect(makeStars()).toEqual(makeStars());
    expect(renderToString(<FallingStars />)).toBe(renderToString(<FallingStars />));
    const lefts = new Set(makeStars().map((s) => s.left));
    expect(lefts.size).toBe(40); // spread out, not stacked
  });

  it("are decoration only", () => {
    const { container } = render(<FallingStars />);
    expect(container.firstElementChild?.getAttribute("aria-hidden")).toBe("true");
  });
});
