// Articles, help topics, policies and the generic content pages render their
// content from the loaders; unknown slugs are 404s with the not-found content.
import { cleanup, render, screen } from "@testing-library/react";
import { createRoutesStub } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import pages from "@omnibus/shared/content/pages.json";
import { routes } from "@omnibus/shared/route-table";
import { contentRequest, fixtureContent, fixturePaths } from "~/lib/content-fixture";
import type { PageContent } from "~/lib/content.server";
import { canonicalPath } from "~/lib/content-meta";
import * as BlogArticle from "./blog-article";
import * as HelpArticle from "./help-article";
import * as HelpCategory from "./help-category";
import * as Page from "./page";
import * as Policy from "./policy";
import * as ShopPage from "./shop-page";

afterEach(cleanup);

const modules: Record<string, { default: React.ComponentType; loader: unknown; handle: unknown; ErrorBoundary?: React.ComponentType }> = {
  "_marketing/blog-article.tsx": BlogArticle,
  "_marketing/help-article.tsx": HelpArticle,
  "_marketing/help-category.tsx": HelpCategory,
  "_marketing/page.tsx": Page,
  "_marketing/policy.tsx": Policy,
  "_marketing/shop-page.tsx": ShopPage,
};

/** The page at url, its request carrying what the edge sends for it (content: in place of the fixture's). */
function renderAt(url: string, content?: PageContent) {
  const withContent = (loader: (args: { request: Request }) => unknown) => (args: { request: Request }) => {
    const path = new URL(args.request.url).pathname;
    if (content) return loader({ ...args, request: contentRequest(path, content) });
    return loader(fixturePaths().includes(path) ? { ...args, request: contentRequest(path) } : args);
  };
  const Stub = createRoutesStub(
    routes
      .filter((entry) => modules[entry.module])
      .map((entry) => {
        const mod = modules[entry.module];
        const loader = withContent(mod.loader as (args: { request: Request }) => unknown);
        return { id: entry.id, path: entry.path, Component: mod.default, ErrorBoundary: mod.ErrorBoundary, HydrateFallback: () => null, loader: loader as never, handle: mod.handle };
      }),
  );
  return render(<Stub initialEntries={[url]} />);
}

const h1 = async () => (await screen.findByRole("heading", { level: 1 }, { timeout: 10_000 })).textContent;

describe("search box", () => {
  it.each(["/help", "/help-centre", "/blog", "/help/category/orders-and-shipping"])("%s has a search box that asks /search?q= without JavaScript", async (path) => {
    renderAt(path);
    const box = (await screen.findByRole("searchbox", {}, { timeout: 10_000 })) as HTMLInputElement;
    expect(box.name).toBe("q");
    expect(box.closest("form")!.getAttribute("action")).toBe("/search");
    expect(box.closest("form")!.getAttribute("method")).toBe("get");
  });
});

describe("articles", () => {
  it("renders a blog article's Markdown as HTML", async () => {
    renderAt("/blog/article/one-inventory-every-channel");
    expect(await h1()).toBe("One inventory for every channel: why overselling happens");
    expect(screen.getByRole("heading", { level: 2, name: "Why separate stock counts fail" })).toBeTruthy();
    expect(screen.getByText("3 November 2026")).toBeTruthy();
    expect(screen.getByRole("link", { name: /Back to the blog/ }).getAttribute("href")).toBe("/blog");
  });

  it("draws the draft of a preview link with its banner, the page otherwise as it will be published", async () => {
    const published = fixtureContent("/blog/article/one-inventory-every-channel");
    const draft = { ...published.article!, title: "A draft title", html: "<p>Draft words.</p>" };
    renderAt("/blog/article/one-inventory-every-channel", { article: draft, preview: { expiresAt: "2026-12-04T09:00:00Z" } });
    expect(await h1()).toBe("A draft title");
    expect(screen.getByRole("status").textContent).toContain(pages.labels.previewBanner);
    expect(screen.getByText("Draft words.")).toBeTruthy();
  });

  it("shows no banner on a published article", async () => {
    renderAt("/blog/article/one-inventory-every-channel");
    await h1();
    expect(screen.queryByText(pages.labels.previewBanner)).toBeNull();
  });

  it("renders the success story with its topic in the breadcrumb", async () => {
    renderAt("/help/category/article/success-story-kaveri-handlooms");
    expect(await h1()).toMatch(/^How Kaveri Handlooms/);
    expect(screen.getByRole("link", { name: "Success stories" }).getAttribute("href")).toBe("/help/category/success-stories");
  });

  it.each([
    "/blog/article/no-such-article",
    "/help/category/article/no-such-article",
    "/help/category/no-such-topic",
    // A help slug is not a blog slug.
    "/blog/article/create-your-store",
  ])("answers %s with the not-found content", async (url) => {
    renderAt(url);
    expect(await h1()).toBe("Page not found");
    expect(screen.getByText(pages.labels.notFoundArticle)).toBeTruthy();
  });

  it("throws a 404 response from the loader for an unknown slug (the HTTP status)", async () => {
    const call = () => (BlogArticle.loader as (args: unknown) => unknown)({ params: { slug: "nope" }, request: new Request("http://x/blog/article/nope") });
    try {
      call();
      expect.unreachable("the loader returned");
    } catch (thrown) {
      expect((thrown as { init?: ResponseInit }).init?.status).toBe(404);
    }
  });

  it("lists a help topic's articles with links, under the topic's introduction", async () => {
    renderAt("/help/category/orders-and-shipping");
    expect(await h1()).toBe("Orders and shipping");
    const intro = fixtureContent("/help/category/orders-and-shipping")?.category?.intro ?? "";
    expect(intro.split(/\s+/).length).toBeGreaterThanOrEqual(40);
    expect(screen.getByText(intro).tagName).toBe("P");
    expect(screen.getByRole("link", { name: "Ship an order with one click" }).getAttribute("href")).toBe("/help/category/article/one-click-shipping");
  });
});

describe("index pages", () => {
  it("lists the blog's articles with links on /blog", async () => {
    renderAt("/blog");
    expect(await h1()).toBe(pages.pages.blog.heading);
    expect(screen.getByRole("link", { name: "Goal-based advertising, explained for busy merchants" }).getAttribute("href")).toBe(
      "/blog/article/goal-based-advertising",
    );
  });

  // A list's older articles are on ?page=2, 3...: plain links a reader
  // without JavaScript and a crawler follow, and each page names itself as
  // canonical (page 1 is the list's own address).
  it("links a page of the blog to its newer and older pages", async () => {
    renderAt("/blog?page=2", { ...fixtureContent("/blog"), page: 2, pages: 3 });
    expect(await h1()).toBe(pages.pages.blog.heading);
    expect(screen.getByRole("link", { name: /Older articles/ }).getAttribute("href")).toBe("/blog?page=3");
    expect(screen.getByRole("link", { name: /Newer articles/ }).getAttribute("href")).toBe("/blog");
    expect(screen.getByText("Page 2 of 3")).toBeTruthy();
    expect([canonicalPath({ pathname: "/blog", search: "?page=2" }), canonicalPath({ pathname: "/blog", search: "?page=1" }), canonicalPath({ pathname: "/blog", search: "?page=x" })]).toEqual([
      "/blog?page=2",
      "/blog",
      "/blog",
    ]);
  });

  it("links a help topic's first page to its older guides, and shows no links when one page holds them all", async () => {
    renderAt("/help/category/orders-and-shipping", { ...fixtureContent("/help/category/orders-and-shipping"), page: 1, pages: 2 });
    await h1();
    expect(screen.getByRole("link", { name: /Older articles/ }).getAttribute("href")).toBe("/help/category/orders-and-shipping?page=2");
    expect(screen.queryByRole("link", { name: /Newer articles/ })).toBeNull();
    cleanup();
    renderAt("/help/category/orders-and-shipping");
    await h1();
    expect(screen.queryByRole("navigation", { name: "More articles" })).toBeNull();
  });

  it("lists the help topics and every guide on /help-centre", async () => {
    renderAt("/help-centre");
    expect(await h1()).toBe(pages.pages["help-centre"].heading);
    expect(screen.getByRole("link", { name: /Getting started/ }).getAttribute("href")).toBe("/help/category/getting-started");
    expect(screen.getByRole("link", { name: "Connect your own domain" }).getAttribute("href")).toBe("/help/category/article/connect-your-domain");
  });
});

describe("content pages", () => {
  it("renders plans on /old-pricing", async () => {
    renderAt("/old-pricing");
    expect(await h1()).toBe(pages.pages["old-pricing"].heading);
    for (const name of ["Starter", "Growth", "Pro", "Enterprise"]) expect(screen.getByRole("heading", { level: 3, name })).toBeTruthy();
    expect(screen.getByText("Are prices inclusive of GST?")).toBeTruthy();
    // The prices are shared/content/plans.json's paise, with GST added exactly as the edge charges it.
    expect(screen.getByText("₹1,499")).toBeTruthy();
    expect(screen.getByText("+ 18% GST: ₹21,225.84 a year with GST")).toBeTruthy();
  });

  it("renders calls to action as links", async () => {
    renderAt("/partner-with-us");
    expect(await h1()).toBe(pages.pages["partner-with-us"].heading);
    expect(screen.getByRole("link", { name: "Apply to partner" }).getAttribute("href")).toBe("/general-enquiry");
  });

  it("renders a policy with its filled-in details", async () => {
    renderAt("/privacy-policy");
    expect(await h1()).toBe("Privacy policy");
    expect(screen.getByRole("heading", { level: 2, name: "8. Grievance Officer" })).toBeTruthy();
    expect(document.body.textContent).toContain(pages.legal.grievanceOfficer);
    expect(document.body.textContent).not.toMatch(/\{(email|entity|address)\}/);
  });
});
