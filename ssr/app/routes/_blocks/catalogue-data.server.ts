// The server-side data of the catalogue pages: the real blog articles, an
// article body rendered from Markdown the way articles are, and where each
// example's component lives (its module under app/components and its export).
import { blogArticles } from "~/lib/content.server";
import { siteData, withSiteSettings } from "~/lib/site.server";
import landing from "@omnibus/shared/content/landing.json";
import { catalogue, type CatalogueData } from "./catalogue";
import type { ComponentHome } from "./showcase";

// What the edge renders articles into (headings with ids, wide tables
// wrapped to scroll): the prose example's body.
const SAMPLE_HTML = `<h2 id="four-weeks-before-the-festive-season">Four weeks before the festive season</h2>
<p>Order stock early: <strong>suppliers run out too</strong>. Then check three things:</p>
<ol>
<li>Courier capacity for your busiest pin codes</li>
<li>A <a href="/features#discounts">coupon campaign</a> for returning customers</li>
<li>Return windows that match the marketplace&#39;s</li>
</ol>
<h3 id="numbers-to-watch">Numbers to watch</h3>
<div class="table-scroll" tabindex="0"><table>
<thead>
<tr>
<th>Metric</th>
<th>Target</th>
</tr>
</thead>
<tbody>
<tr>
<td>Conversion rate</td>
<td>2.5%</td>
</tr>
<tr>
<td>Orders shipped in 24 h</td>
<td>95%</td>
</tr>
</tbody>
</table></div>
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

export function catalogueData(request: Request): CatalogueData {
  // The landing and footer content with the configured links filled in ({scheduleDemoUrl}), as the real pages get them.
  const base = { articles: blogArticles(request), proseHtml: SAMPLE_HTML, landing: withSiteSettings(landing), footer: siteData().footer };
  // Where each example's component lives, found from the component itself (never written by hand, so never stale).
  const homes = Object.fromEntries(Object.entries(catalogue(base)).map(([id, block]) => [id, block.examples.map((e) => componentHome(e.component))]));
  return { ...base, homes };
}
