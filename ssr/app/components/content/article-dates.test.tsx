// An article page shows the dates its JSON-LD and article:* tags name
// (datePublished; dateModified when the front matter says updated:).
import { cleanup, render } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { ArticleDates } from "./article-dates";

afterEach(cleanup);

const article = { slug: "a", title: "T", description: "D", date: "2026-01-02", category: "c" };
const labels = { dateLabel: "Published", publishedLabel: "Published", updatedLabel: "Last updated" };
const times = (el: HTMLElement) => [...el.querySelectorAll("time")].map((t) => [t.getAttribute("datetime"), t.textContent]);

describe("ArticleDates", () => {
  it("shows the day it was published, and the day it was revised when there is one", () => {
    const { container } = render(<ArticleDates article={{ ...article, updated: "2026-03-04" }} {...labels} />);
    expect(container.textContent).toBe("Published 2 January 2026 · Last updated 4 March 2026");
    expect(times(container)).toEqual([
      ["2026-01-02", "2 January 2026"],
      ["2026-03-04", "4 March 2026"],
    ]);
  });

  it("shows its date alone, with the page's label, when it was never revised", () => {
    const { container } = render(<ArticleDates article={article} {...labels} dateLabel="Last updated" />);
    expect(container.textContent).toBe("Last updated 2 January 2026");
    expect(times(container)).toEqual([["2026-01-02", "2 January 2026"]]);
  });
});
