// The search page renders the results the edge sends with the page request
// (shared/http.json's search header): the matched words marked, everything
// else as text, so an article's markup never becomes the page's. Without the
// header it says search is unavailable; a client past its limit gets 429.
import { cleanup, render, screen } from "@testing-library/react";
import { createRoutesStub } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import names from "@omnibus/shared/http.json";
import type { SearchResult } from "~/components/search/search-results";
import * as Search from "./search";

afterEach(cleanup);

const encode = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
const request = (q: string, result?: SearchResult) =>
  new Request(`http://omnibus.test/search?q=${encodeURIComponent(q)}`, { headers: result ? { [names.searchHeader]: encode(result) } : {} });

type Loaded = Awaited<ReturnType<typeof Search.loader>>;
const loaded = (r: Request) => Search.loader({ request: r, params: {}, context: {} } as never) as Loaded;

function renderWith(data: unknown) {
  const Stub = createRoutesStub([{ id: "search", path: "/search", Component: Search.default, loader: () => data, HydrateFallback: () => null }]);
  return render(<Stub initialEntries={["/search?q=refnd"]} />);
}

const refunds: SearchResult = {
  status: "ok",
  query: "refnd",
  total: 1,
  results: [
    {
      type: "help",
      url: "/help/category/article/returns-cancellations-and-refunds",
      category: "Orders and shipping",
      title: [{ text: "Partial fulfilment, returns, cancellations and " }, { text: "refunds", mark: true }],
      snippet: [{ text: "… <script>alert(1)</script> " }, { text: "Refunds", mark: true }, { text: " go back through the payment method." }],
    },
  ],
};

describe("search page", () => {
  it("shows the edge's results with the matched words marked and the rest as text", async () => {
    const data = loaded(request("refnd", refunds));
    const { container } = renderWith(data);
    const link = await screen.findByRole("link", { name: /Partial fulfilment/ }, { timeout: 10_000 });
    expect(link.getAttribute("href")).toBe("/help/category/article/returns-cancellations-and-refunds");
    expect([...container.querySelectorAll("mark")].map((m) => m.textContent)).toEqual(["refunds", "Refunds"]);
    expect(container.querySelector("script")).toBeNull();
    expect(container.textContent).toContain("<script>alert(1)</script>");
    expect(screen.getByText("Orders and shipping")).toBeTruthy();
    // The box keeps the query, and asks /search without JavaScript.
    const box = screen.getByRole("searchbox") as HTMLInputElement;
    expect(box.value).toBe("refnd");
    expect(box.name).toBe("q");
    expect(box.closest("form")!.getAttribute("action")).toBe("/search");
    expect(box.closest("form")!.getAttribute("method")).toBe("get");
  });

  it("says when nothing matched, and points to the help centre", async () => {
    renderWith(loaded(request("blockchain", { status: "ok", query: "blockchain", total: 0, results: [] })));
    expect(await screen.findByText(/Nothing matched “blockchain”/, {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByRole("link", { name: "Browse the help centre" }).getAttribute("href")).toBe("/help-centre");
  });

  it("without the edge's results, says search is unavailable rather than that nothing matched", async () => {
    const data = loaded(request("refund"));
    expect((data as { result: SearchResult }).result.status).toBe("unavailable");
    renderWith(data);
    expect(await screen.findByText(/Search is not available right now/, {}, { timeout: 10_000 })).toBeTruthy();
  });

  it("answers 429 when the client searched too often", () => {
    const data = loaded(request("refund", { status: "limited", query: "refund", total: 0, results: [] })) as unknown as { init: { status: number } };
    expect(data.init.status).toBe(429);
  });
});
