import { cleanup, render, screen } from "@testing-library/react";
import { createRoutesStub } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import features from "@omnibus/shared/content/features.json";
import { FEATURE_GRID_DEFAULTS, FeatureGrid, lastCardSpan, type FeatureGridProps } from "./feature-grid";

afterEach(cleanup);

function renderGrid(props: Partial<FeatureGridProps> = {}) {
  const Stub = createRoutesStub([{ path: "/", Component: () => <FeatureGrid items={features.features} {...props} /> }]);
  render(<Stub initialEntries={["/"]} />);
  return screen.getByRole("list");
}

describe("FeatureGrid", () => {
  it("defaults to at most 6 items in 4 columns (SPEC §9)", () => {
    expect(FEATURE_GRID_DEFAULTS).toEqual({ limit: 6, columns: 4 });
    expect(features.features.length).toBeGreaterThan(8);
    const grid = renderGrid();
    expect(grid.querySelectorAll(":scope > li")).toHaveLength(6);
    expect(grid.className).toContain("lg:grid-cols-4");
  });

  it("shows the landing page's 8 items in 3 columns", () => {
    const grid = renderGrid({ limit: 8, columns: 3 });
    expect(grid.querySelectorAll(":scope > li")).toHaveLength(8);
    expect(grid.className).toContain("lg:grid-cols-3");
    expect(grid.className).not.toContain("lg:grid-cols-4");
  });

  it("lets the last card span the columns a short last row leaves, so no row ends in a hole", () => {
    expect(lastCardSpan(8, 3)).toBe("lg:col-span-2"); // the landing page: 3 + 3 + 2, two columns at sm
    expect(lastCardSpan(7, 3)).toBe("sm:col-span-2 lg:col-span-3");
    expect(lastCardSpan(9, 3)).toBe("sm:col-span-2 lg:col-span-1");
    expect(lastCardSpan(6, 4)).toBe("lg:col-span-3");
    expect(lastCardSpan(8, 4)).toBe("");
    expect(lastCardSpan(5, 1)).toBe("");
    const grid = renderGrid({ limit: 8, columns: 3 });
    expect(grid.querySelector(":scope > li:last-child")!.className).toContain("lg:col-span-2");
    expect(grid.querySelector(":scope > li:first-child")!.className).not.toContain("col-span");
  });

  it("renders each item's icon, title, text and link (SPEC §3 feature item)", () => {
    renderGrid({ limit: 1 });
    const [first] = features.features;
    const link = screen.getByRole("link", { name: first.title });
    expect(link.getAttribute("href")).toBe(first.link);
    expect(screen.getByText(first.text)).toBeTruthy();
    expect(screen.getByRole("listitem").querySelector("svg path")).toBeTruthy();
  });
});
