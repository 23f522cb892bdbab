// The server-side data of the catalogue pages: the real blog articles and an
// article body rendered from Markdown the way articles are.
import { blogArticles } from "~/lib/content.server";
import { renderMarkdown } from "~/lib/markdown.server";
import { siteData, withSiteSettings } from "~/lib/site.server";
import landing from "../../../../shared/content/landing.json";
import type { CatalogueData } from "./catalogue";

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

export function catalogueData(): CatalogueData {
  // The landing and footer content with the configured links filled in ({scheduleDemoUrl}), as the real pages get them.
  return { articles: blogArticles(), proseHtml: renderMarkdown(SAMPLE), landing: withSiteSettings(landing), footer: siteData().footer };
}
