// The server-side data of the catalogue pages: the real blog articles, an
// article body rendered from Markdown the way articles are, and where each
// example's component lives (its module under app/components and its export).
import { blogArticles } from "~/lib/content.server";
import { renderMarkdown } from "~/lib/markdown.server";
import { siteData, withSiteSettings } from "~/lib/site.server";
import landing from "../../../../shared/content/landing.json";
import { catalogue, type CatalogueData } from "./catalogue";
import type { ComponentHome } from "./showcase";

const SAMPLE = `## Four weeks before the festive season

Order stock early: **suppliers run out too**. Then check three things:

1. Courier capacity for your busiest pin codes
2. A [coupon campaign](/features#discounts) for returning customers
3. Return windows that match the marketplace's

### Numbers to watch

| Metric | Target |
| --- | --- |
| Conversion rate | 2.5% |
| Orders shipped in 24 h | 95% |
`;

// Every module under app/components (server only: the client never loads them all).
const componentModules = import.meta.glob(["../../components/**/*.tsx", "!../../components/**/*.test.tsx"], { eager: true }) as Record<string, Record<string, unknown>>;

/** The file (from the repository's root) and the export name of one of the site's components. */
export function componentHome(component: unknown): ComponentHome | null {
  for (const [file, mod] of Object.entries(componentModules)) {
    for (const [name, value] of Object.entries(mod)) {
      if (value === component) return { name, path: `ssr/app/${file.replace(/^(\.\.\/)+/, "")}` };
    }
  }
  return null;
}

export function catalogueData(): CatalogueData {
  // The landing and footer content with the configured links filled in ({scheduleDemoUrl}), as the real pages get them.
  const base = { articles: blogArticles(), proseHtml: renderMarkdown(SAMPLE), landing: withSiteSettings(landing), footer: siteData().footer };
  // Where each example's component lives, found from the component itself (never written by hand, so never stale).
  const homes = Object.fromEntries(Object.entries(catalogue(base)).map(([id, block]) => [id, block.examples.map((e) => componentHome(e.component))]));
  return { ...base, homes };
}
