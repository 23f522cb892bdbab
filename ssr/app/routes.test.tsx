// The route table (shared/routes.json) and the router agree: every entry is a
// route with the same path and module, and every route renders its page
// inside the layout its entry names.
import { cleanup, render, screen, waitFor } from "@testing-library/react";
import type { ComponentType } from "react";
import { createRoutesStub } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import featuresContent from "@omnibus/shared/content/features.json";
import { notFound, routes as table } from "@omnibus/shared/route-table";
import App, { loader as rootLoader } from "./root";
import routeConfig from "./routes";
import { examplePath } from "../e2e/example-paths";
import { contentRequest, fixturePaths } from "./lib/content-fixture";

interface RouteModule {
  default: ComponentType;
  loader?: unknown;
  meta?: unknown;
  handle?: { routeCopy?: { module: string; routes: Record<string, { title: string; description: string }> } };
}
const modules = import.meta.glob<RouteModule>("./routes/**/*.tsx", { eager: true });
const moduleOf = (file: string) => modules[`./${file}`];

afterEach(cleanup);

describe("route table ↔ router", () => {
  it("has one router route per table entry, with the same path, module and id", () => {
    expect(routeConfig).toHaveLength(table.length + 1);
    for (const entry of table) {
      const route = routeConfig.find((r) => r.id === entry.id);
      expect(route, entry.id).toBeDefined();
      expect(route?.path).toBe(entry.path);
      expect(route?.file).toBe(`routes/${entry.module}`);
    }
  });

  it("sends every other path to the not-found module", () => {
    const route = routeConfig.find((r) => r.id === notFound.id);
    expect(route?.path).toBe("*");
    expect(route?.file).toBe(`routes/${notFound.module}`);
  });

  it("has a route module with a page and meta for every module the table names", () => {
    for (const file of new Set([...table.map((e) => e.module), notFound.module])) {
      const mod = moduleOf(`routes/${file}`);
      expect(mod, file).toBeDefined();
      expect(typeof mod.default, file).toBe("function");
      expect(typeof mod.meta, `${file} exports meta`).toBe("function");
    }
  });

  it("gives every route its title and description through its module's handle (virtual:route-copy)", () => {
    for (const entry of table) {
      const copy = moduleOf(`routes/${entry.module}`).handle?.routeCopy;
      expect(copy?.module, entry.id).toBe(entry.module);
      expect(copy?.routes[entry.id], entry.id).toEqual({ title: entry.title, description: entry.description });
    }
  });

  it("has unique ids and paths", () => {
    expect(new Set(table.map((e) => e.id)).size).toBe(table.length);
    expect(new Set(table.map((e) => e.path)).size).toBe(table.length);
  });
});

/** A loader given its page request as the edge sends it: with the page's content (articles, policies, lists) when it has some. */
function withContent(loader: ((args: { request: Request }) => unknown) | undefined) {
  if (!loader) return undefined;
  return (args: { request: Request }) => {
    const path = new URL(args.request.url).pathname;
    return loader(fixturePaths().includes(path) ? { ...args, request: contentRequest(path) } : args);
  };
}

/** The app's root (layout picked from the route table) with every table route under it, as the router builds them. */
function renderAt(url: string) {
  // The studio's pages read their data from the edge's header; here, a staff member's.
  const studioItem = {
    id: 1, type: "blog", slug: "festive", state: "draft", changed: false, scheduledAt: null, publishedAt: null, path: "/blog/article/festive",
    revision: { id: 5, number: 1, slug: "festive", fields: { title: "Festive", description: "D", date: "2026-11-27", category: "Growth" }, body: "Hello", html: "<p>Hello</p>", author: "ana@example.com", note: "", createdAt: "2026-11-27T10:00:00Z" },
    publishedRevisionId: null, pendingRepository: null, updatedAt: "2026-11-27T10:00:00Z",
  };
  const studioTypes = [{ type: "blog", body: true, fields: [{ name: "title", required: true, kind: "text" }, { name: "date", required: true, kind: "date" }] }];
  const stubLoaders: Record<string, () => unknown> = {
    studio: () => ({ member: "ana@example.com", types: studioTypes, list: { filter: { Type: "", State: "", Author: "", Query: "" }, items: [studioItem], views: { "/blog/article/festive": 1200 } } }),
    "studio-new": () => ({ member: "ana@example.com", types: studioTypes }),
    "studio-item": () => ({ member: "ana@example.com", types: studioTypes, item: studioItem, revisions: [studioItem.revision], previews: [] }),
    "studio-members": () => ({
      member: "ada@example.com", admin: true, types: studioTypes,
      members: { roles: ["viewer", "editor", "publisher", "admin"], members: [{ accountId: 1, email: "ada@example.com", role: "admin", grantedBy: "edge staff command", grantedAt: "2026-11-27T10:00:00Z", reason: "founder", totpAllowed: false, passkeys: 1 }] },
    }),
    "studio-audit": () => ({
      member: "ada@example.com", admin: true, types: studioTypes,
      audit: { filter: { action: "role." }, actions: ["role.granted"], next: 7, entries: [{ id: 8, at: "2026-11-27T10:00:00Z", actorId: 1, actor: "ada@example.com", action: "role.granted", itemType: "member", itemId: "vi@example.com", revision: 0, detail: "viewer: support", clientIp: "203.0.113.9" }] },
    }),
    // The /features loader calls the edge; here its data comes straight from the shared content.
    features: () => ({ features: Promise.resolve(featuresContent.features) }),
    // The journey pages read the signed-in merchant from the edge; here, a merchant in onboarding.
    "choose-plan": () => ({ storeName: "ana-lima", pending: null }),
    "test-payment": () => ({
      order: { id: "o1", product: "plan", itemId: "growth", name: "Growth", quantity: 1, subtotalPaise: 1798800, gstPaise: 323784, totalPaise: 2122584, currency: "INR", status: "pending" },
      session: "tm_x",
      cancelUrl: "/choose-plan",
    }),
  };
  const children = [...table, { ...notFound, path: "*" }].map((entry) => ({
    id: entry.id,
    path: entry.path,
    Component: moduleOf(`routes/${entry.module}`).default,
    loader: stubLoaders[entry.id] ?? withContent(moduleOf(`routes/${entry.module}`).loader as ((args: { request: Request }) => unknown) | undefined),
    handle: moduleOf(`routes/${entry.module}`).handle,
  }));
  const Stub = createRoutesStub([
    { id: "root", Component: App, HydrateFallback: () => null, loader: rootLoader, children },
  ]);
  return render(<Stub initialEntries={[url]} />);
}

describe("every route renders with its layout", () => {
  it.each(table.map((entry) => [entry.id, entry] as const))("%s", async (_id, entry) => {
    const { container } = renderAt(examplePath(entry.path));
    // (A busy machine may take more than the default second to render a page.)
    const heading = await screen.findByRole("heading", { level: 1 }, { timeout: 10_000 });
    // Pages with content have their own headings (shared/content); the rest name themselves after their table title.
    expect(heading.textContent?.trim(), entry.id).toBeTruthy();
    expect(container.querySelector("[data-layout]")?.getAttribute("data-layout")).toBe(entry.layout);
    // Every layout has the navigation bar with the brand link home.
    expect(container.querySelector("header[data-nav] a[href='/']")?.textContent).toContain("Omnibus");
  });

  it("renders an unknown path as the not-found page in the minimal layout", async () => {
    const { container } = renderAt("/no/such/page");
    expect((await screen.findByRole("heading", { level: 1 })).textContent).toBe("Page not found");
    expect(container.querySelector("[data-layout]")?.getAttribute("data-layout")).toBe("minimal");
  });

  it("shows the feature list on /features once the deferred data arrives", async () => {
    const { container } = renderAt("/features");
    // The page's own sections come at once; the platform's grid follows with the deferred data.
    await waitFor(() => expect(container.querySelector("[data-feature-grid]")?.textContent).toContain(featuresContent.features[0].title), { timeout: 10_000 });
  });
});
