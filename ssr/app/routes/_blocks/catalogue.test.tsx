// The catalogue is alive: every demo route shows more than its title, every
// component it shows is one of the site's own (an export of a module under
// app/components, not a copy), and every documented content example renders.
import { existsSync } from "node:fs";
import { contentRequest, fixtureContent } from "~/lib/content-fixture";
import path from "node:path";
import { cleanup, render, screen, waitFor } from "@testing-library/react";
import sharp from "sharp";
import type { ComponentType } from "react";
import { createRoutesStub, Outlet } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { siteSettings } from "~/lib/site.server";
import { routes } from "@omnibus/shared/route-table";
import * as Advanced from "./advanced";
import * as Block from "./block";
import * as BlogDemo from "./blog-demo";
import { catalogue } from "./catalogue";
import { catalogueData } from "./catalogue-data.server";
import * as Index from "./index";
import { ExampleView, type Example } from "./showcase";
import { THUMBNAIL, thumbnailOf } from "./thumbnail";
import { showsSomething } from "../../../e2e/pixels";

afterEach(cleanup);

const modules: Record<string, { default: ComponentType; loader: unknown; handle: unknown }> = {
  "_blocks/index.tsx": Index,
  "_blocks/block.tsx": Block,
  "_blocks/advanced.tsx": Advanced,
  "_blocks/blog-demo.tsx": BlogDemo,
};
const demoRoutes = routes.filter((r) => r.module.startsWith("_blocks/"));
const blockRoutes = demoRoutes.filter((r) => r.module === "_blocks/block.tsx" || r.module === "_blocks/advanced.tsx");
const entries = catalogue(catalogueData(contentRequest("/blocks")));

/** Every function exported by a module under app/components. */
const componentExports = new Set<unknown>(
  Object.values(import.meta.glob(["../../components/**/*.tsx", "!../../components/**/*.test.tsx"], { eager: true })).flatMap((mod) =>
    Object.values(mod as Record<string, unknown>).filter((value) => typeof value === "function"),
  ),
);

function renderRoute(url: string) {
  const Stub = createRoutesStub([
    {
      id: "root",
      loader: () => ({ settings: siteSettings(), publicUrl: "http://localhost" }),
      Component: () => <Outlet />,
      HydrateFallback: () => null,
      children: demoRoutes.map((r) => ({
        id: r.id,
        path: r.path,
        Component: modules[r.module].default,
        // The page request carries the blog's articles as the edge sends them (the single-article layouts: the newest article too).
        loader: (args: { request: Request }) =>
          (modules[r.module].loader as (a: unknown) => unknown)({ ...args, request: contentRequest(r.path, fixtureContent(/^\/blog\/post(-2)?$/.test(r.path) ? "/blog/post" : "/blocks")) }),
        handle: modules[r.module].handle,
        HydrateFallback: () => null,
      })),
    },
  ]);
  return render(<Stub initialEntries={[url]} />);
}

function renderExample(example: Example) {
  const Stub = createRoutesStub([{ id: "root", path: "*", loader: () => ({ settings: siteSettings() }), Component: () => <ExampleView example={example} />, HydrateFallback: () => null }]);
  return render(<Stub initialEntries={["/blocks"]} />);
}

/** The string values of a content example (the words and paths a marketer writes). */
function strings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === "object") return Object.values(value).flatMap(strings);
  return [];
}

describe("the component catalogue", () => {
  it("has an entry with examples for every /blocks route, and nothing else", () => {
    expect(Object.keys(entries).sort()).toEqual(blockRoutes.map((r) => r.id).sort());
    for (const r of blockRoutes) expect(entries[r.id].examples.length, r.path).toBeGreaterThan(0);
  });

  it("documents no empty list (a content source that yields nothing, like an unreadable stylesheet, fails)", () => {
    const empty = (value: unknown): boolean =>
      Array.isArray(value) ? value.length === 0 || value.some(empty) : value !== null && typeof value === "object" ? Object.values(value).some(empty) : false;
    for (const [id, block] of Object.entries(entries)) for (const e of block.examples) expect(empty(e.props), `${id} “${e.title}”`).toBe(false);
  });

  it("shows only components exported from app/components", () => {
    for (const [id, block] of Object.entries(entries)) {
      for (const e of block.examples) {
        expect(componentExports.has(e.component), `${id} “${e.title}” shows ${e.component.name}, which is not an export of app/components`).toBe(true);
      }
    }
  });

  for (const [id, block] of Object.entries(entries)) {
    it(`${id}: every content example renders, with its content, beside its JSON`, async () => {
      for (const e of block.examples) {
        const { container, unmount } = renderExample(e);
        const section = await waitFor(() => {
          const found = container.querySelector("[data-example]");
          if (!found) throw new Error("not rendered yet");
          return found;
        });
        const preview = section.querySelector("[data-preview]")!;
        expect(preview.children.length, `${id} “${e.title}” renders nothing`).toBeGreaterThan(0);
        // The JSON shown is the content that produced the preview.
        expect(JSON.parse(section.querySelector("pre")!.textContent!)).toEqual(JSON.parse(JSON.stringify(e.props)));
        // Some of the example's own words or paths appear in what it rendered (text or attributes).
        // (HTML content is compared by its text.)
        const words = strings(e.props)
          .map((s) => (s.includes("<") ? s.replace(/<[^>]+>/g, "").trim().slice(0, 40) : s))
          .filter((s) => s.length > 2);
        if (words.length > 0) {
          const html = preview.innerHTML.replace(/&amp;/g, "&").replace(/&quot;/g, '"').replace(/&#x27;|&#39;/g, "'");
          const text = preview.textContent ?? "";
          expect(words.some((w) => text.includes(w) || html.includes(w)), `${id} “${e.title}” shows none of its content`).toBe(true);
        }
        unmount();
      }
    });
  }
});

describe("demo pages", () => {
  for (const r of demoRoutes) {
    it(`${r.path} shows more than its title`, async () => {
      const { container } = renderRoute(r.path);
      await screen.findAllByRole("heading", { level: 1 }, { timeout: 15_000 });
      const main = container;
      if (r.module === "_blocks/blog-demo.tsx") {
        // The real articles (their links), or one whole article.
        const articleLinks = main.querySelectorAll("a[href^='/blog/article/']");
        const body = main.querySelector("article h2, article p + p");
        expect(articleLinks.length > 0 || body !== null, `${r.path} shows no article`).toBe(true);
      } else if (r.module === "_blocks/index.tsx") {
        for (const b of blockRoutes) expect(main.querySelector(`a[href='${b.path}']`), `/blocks links to ${b.path}`).not.toBeNull();
      } else {
        const previews = [...main.querySelectorAll("[data-preview]")];
        expect(previews.length, `${r.path} has no examples`).toBeGreaterThan(0);
        for (const p of previews) expect(p.children.length, `${r.path} has an empty example`).toBeGreaterThan(0);
      }
    });
  }
});

// A marketer learns from each block page where its component lives
// and how a page uses it, and the JSON shown is content that reproduces the block.
describe("how a page uses a block", () => {
  const { homes = {} } = catalogueData(contentRequest("/blocks"));
  const repo = path.resolve(import.meta.dirname, "../../../..");
  const modulesByPath = import.meta.glob(["../../components/**/*.tsx", "!../../components/**/*.test.tsx"], { eager: true }) as Record<string, Record<string, unknown>>;

  for (const [id, block] of Object.entries(entries)) {
    it(`${id}: every example names the file and the export of its component`, () => {
      block.examples.forEach((e, i) => {
        const home = homes[id]?.[i];
        expect(home, `${id} “${e.title}” has no component path`).toBeTruthy();
        expect(existsSync(path.join(repo, home!.path)), home!.path).toBe(true);
        expect(modulesByPath[`../../${home!.path.replace(/^ssr\/app\//, "")}`]?.[home!.name], `${home!.path} exports ${home!.name}`).toBe(e.component);
      });
    });

    it(`${id}: the JSON to copy, given to the component, renders the same block`, async () => {
      for (const e of block.examples) {
        const preview = async (props: object) => {
          const { container, unmount } = renderExample({ ...e, props });
          const html = await waitFor(() => {
            const found = container.querySelector("[data-preview]");
            if (!found) throw new Error("not rendered yet");
            // React's generated ids (useId) count across renders: the same block has other numbers.
            return found.innerHTML.replace(/_r_[0-9a-z]+_/g, "_r_");
          });
          unmount();
          return html;
        };
        const json = JSON.parse(JSON.stringify(e.props, null, 2));
        expect(await preview(json), `${id} “${e.title}”`).toBe(await preview(e.props));
      }
    });
  }
});

// Every /blocks thumbnail shows its block (e2e/pixels.ts: the blank
// ones had 0.1% of their pixels drawn, the "mostly empty" ones a corner of the frame).
describe("the /blocks thumbnails", () => {
  const dir = path.resolve(import.meta.dirname, "../../../public");
  for (const r of blockRoutes) {
    it(`${r.id}: a light and a dark picture of the thumbnail's size, not blank`, async () => {
      const { light, dark } = thumbnailOf(r.id);
      for (const url of [light, dark]) {
        const file = path.join(dir, url);
        expect(existsSync(file), `${url} is missing: run node ssr/scripts/images/thumbnails.mjs`).toBe(true);
        const { data, info } = await sharp(file).removeAlpha().raw().toBuffer({ resolveWithObject: true });
        expect([info.width, info.height]).toEqual([THUMBNAIL.width, THUMBNAIL.height]);
        expect(showsSomething(data, info.width), `${url} is blank or mostly empty`).toEqual({ drawn: true, large: true });
      }
    });
  }
});
