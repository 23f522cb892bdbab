// The edge counts a JavaScript visitor's client-side navigation by
// the page's data request (/features.data?_routes=features): nothing else of
// such a navigation reaches it. React Router sends that request only for a
// route with a server loader (root's shouldRevalidate keeps root out of it),
// and for a route with a clientLoader only when the clientLoader asks for it
// (serverLoader). So every route module of shared/routes.json has a server
// loader, and a clientLoader calls it once the page opens; without that the
// route's client-side views go uncounted (docs/analytics.md).
import { afterEach, describe, expect, it, vi } from "vitest";
import { routes as table } from "@omnibus/shared/route-table";

interface RouteModule {
  loader?: unknown;
  clientLoader?: (args: { serverLoader: () => Promise<unknown>; request: Request; params: Record<string, string> }) => Promise<unknown>;
}
const modules = import.meta.glob<RouteModule>(["./routes/**/*.tsx", "!./routes/**/*.test.tsx"], { eager: true });
const files = [...new Set(table.map((e) => e.module))];

afterEach(() => vi.restoreAllMocks());

describe("every route's client-side navigation reaches the edge", () => {
  it.each(files)("%s has a server loader", (file) => {
    expect(typeof modules[`./routes/${file}`]?.loader, `${file} exports no server loader: a client-side navigation to its pages asks the edge for nothing and is not counted`).toBe("function");
  });

  const withClientLoader = files.filter((f) => modules[`./routes/${f}`]?.clientLoader);
  it.each(withClientLoader)("%s: the clientLoader asks for the server data once the page opens", async (file) => {
    // A signed-out visitor: the sign-in check lets the page open.
    vi.spyOn(globalThis, "fetch").mockImplementation(async () =>
      Response.json({ data: { isLoggedIn: false, omnicustomerStatus: "" } }),
    );
    const serverLoader = vi.fn(async () => null);
    await modules[`./routes/${file}`].clientLoader!({ serverLoader, request: new Request("http://localhost/"), params: {} });
    expect(serverLoader).toHaveBeenCalledTimes(1);
  });
});
