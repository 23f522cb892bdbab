// The server's structured data and page list (lib/seo.server.tsx,
// structured-data.server.ts). e2e/seo.spec.ts reads the same from the real
// server's HTML with outside parsers; these pin the rules that need no server.
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { routes } from "@omnibus/shared/route-table";
import { contentRequest, fixtureContent, fixturePaths } from "./content-fixture";
import { blogArticles, contentPage, helpArticles, type PageContent } from "./content.server";
import { imageAlt, pageSeo, seoHead, seoPage, seoPages, structuredData } from "./seo.server";
import { jsonLdText } from "./structured-data.server";

const ORIGIN = "https://omnibus.example";
// The content the edge sends with a page's request (content pages only).
const contentOf = (path: string): PageContent | undefined => (fixturePaths().includes(path) ? fixtureContent(path) : undefined);
const types = (path: string) => structuredData(seoPage(path, contentOf(path))!, ORIGIN).map((o) => o["@type"]);
const blogList = () => blogArticles(contentRequest("/blog"));
const helpList = () => helpArticles(contentRequest("/help-centre"));

describe("jsonLdText", () => {
  it("lets nothing close the <script> or open a comment, and means the same JSON", () => {
    const hostile = { "@type": "Thing", name: "</script><script>alert(1)</script><!-- & \u2028" };
    const text = jsonLdText([hostile]);
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(text)).toEqual({ "@context": "https://schema.org", "@graph": [hostile] });
  });
});

describe("seoPages", () => {
  it("has every page without parameters (the demos and transactional pages excepted), and every article and help topic from its page's content", () => {
    const paths = seoPages().map((p) => p.path);
    for (const r of routes.filter((r) => !/[:*]/.test(r.path) && !r.module.startsWith("_blocks/") && !r.noindex)) expect(paths, r.path).toContain(r.path);
    expect(paths).not.toContain("/petpawlor-order-complete");
    for (const a of blogList()) expect(seoPage(`/blog/article/${a.slug}`, contentOf(`/blog/article/${a.slug}`))?.path).toBe(`/blog/article/${a.slug}`);
    for (const a of helpList()) expect(seoPage(`/help/category/article/${a.slug}`, contentOf(`/help/category/article/${a.slug}`))?.type).toBe("article");
    expect(paths.some((p) => p.startsWith("/blocks"))).toBe(false);
  });

  it("gives articles og:type article, their date and section", () => {
    const a = blogList()[0];
    const page = seoPage(`/blog/article/${a.slug}/`, contentOf(`/blog/article/${a.slug}`))!;
    expect(page).toMatchObject({ type: "article", date: a.date, category: a.category, section: "Blog", title: a.title });
  });

  it("writes nothing for a path that is no page (the not-found page)", () => {
    expect(seoHead("/no-such-page", ORIGIN)).toBeNull();
    expect(seoHead("/blog/article/no-such-article", ORIGIN)).toBeNull();
  });
});

/** The <meta property|name> tags of an element, by their property or name. */
function metaTags(html: string): Record<string, string> {
  const doc = new DOMParser().parseFromString(`<head>${html}</head>`, "text/html");
  return Object.fromEntries([...doc.querySelectorAll("meta")].map((m) => [m.getAttribute("property") ?? m.getAttribute("name"), m.getAttribute("content") ?? ""]));
}

describe("seoHead: a whole preview card on every page that answers 200", () => {
  // lib/meta.ts says twitter:card=summary_large_image on every page: each needs its image.
  it.each(["/blocks/cards", "/blocks", "/blog/posts-2", "/blog/post", "/petpawlor-order-complete", "/sso-redirect", "/choose-plan"])(
    "%s (no preview of its own) gets og:type website and the site's generic card, its size and alt, and no JSON-LD",
    (path) => {
      const seo = seoHead(path, ORIGIN);
      expect(seo).not.toBeNull();
      const tags = metaTags(renderToStaticMarkup(seo!.head));
      expect(tags).toMatchObject({
        "og:type": "website",
        "og:image": `${ORIGIN}/og-image.jpg`,
        "og:image:type": "image/jpeg",
        // public/og-image.jpg's real size (e2e/seo.spec.ts measures the served file).
        "og:image:width": "1200",
        "og:image:height": "630",
        "twitter:image": `${ORIGIN}/og-image.jpg`,
      });
      expect(tags["og:image:alt"]).toMatch(/^Omnibus: .+/);
      expect(tags["twitter:image:alt"]).toBe(tags["og:image:alt"]);
      expect(seo!.body).toBeNull();
    },
  );

  it("previews /features and /old-pricing (where feature anchors and plans are shared) with their own card, its section not repeating the title", () => {
    expect(imageAlt(seoPage("/old-pricing")!)).toBe("Omnibus: Pricing");
    expect(imageAlt(seoPage("/features")!)).toBe("Omnibus: Features");
    expect(imageAlt(seoPage("/partner-with-us")!)).toBe("Partner programme: Partner with us");
  });

  it("names the company's /about page as an article's author (a profile URL, as Open Graph asks), in the tags and the JSON-LD", () => {
    const slug = blogList()[0].slug;
    const page = seoPage(`/blog/article/${slug}`, contentOf(`/blog/article/${slug}`))!;
    expect(metaTags(renderToStaticMarkup(pageSeo(page, ORIGIN).head))["article:author"]).toBe(`${ORIGIN}/about`);
    const article = structuredData(page, ORIGIN).find((o) => o["@type"] === "BlogPosting") as { author: { name: string; url: string } };
    expect(article.author).toMatchObject({ name: "Omnibus", url: `${ORIGIN}/about` });
  });
});

describe("an article revised after it was published (front matter updated:)", () => {
  const helpPath = `/help/category/article/${helpList()[0].slug}`;
  const page = { ...seoPage(helpPath, contentOf(helpPath))!, date: "2026-01-02", updated: "2026-03-04" };

  it("is modified on its updated day in the JSON-LD and article:modified_time, published on its date", () => {
    const article = structuredData(page, ORIGIN).find((o) => o["@type"] === "Article")!;
    expect(article).toMatchObject({ datePublished: "2026-01-02", dateModified: "2026-03-04" });
    const tags = metaTags(renderToStaticMarkup(pageSeo(page, ORIGIN).head));
    expect(tags).toMatchObject({ "article:published_time": "2026-01-02", "article:modified_time": "2026-03-04" });
  });

  it("without updated:, is modified on the day it was published", () => {
    const { updated: _updated, ...never } = page;
    expect(structuredData(never, ORIGIN).find((o) => o["@type"] === "Article")).toMatchObject({ datePublished: "2026-01-02", dateModified: "2026-01-02" });
  });
});

describe("structuredData", () => {
  it("marks up each page type with its types", () => {
    expect(types("/")).toEqual(["Organization", "WebSite"]);
    expect(types(`/blog/article/${blogList()[0].slug}`)).toEqual(["BreadcrumbList", "BlogPosting"]);
    expect(types(`/help/category/article/${helpList()[0].slug}`)).toEqual(["BreadcrumbList", "Article"]);
    expect(types("/partner-with-us")).toEqual(["BreadcrumbList", "FAQPage"]);
    expect(types("/old-pricing")).toEqual(["BreadcrumbList", "FAQPage", "Product", "Product", "Product"]);
    expect(types("/petpawlor")).toEqual(["BreadcrumbList", "Product"]);
  });

  it("offers search engines the site's search from the home page (WebSite SearchAction to /search?q=)", () => {
    const site = structuredData(seoPage("/")!, ORIGIN).find((o) => o["@type"] === "WebSite") as { potentialAction: { target: { urlTemplate: string }; "query-input": string } };
    expect(site.potentialAction.target.urlTemplate).toBe(`${ORIGIN}/search?q={search_term_string}`);
    expect(site.potentialAction["query-input"]).toBe("required name=search_term_string");
  });

  it("marks up the partner FAQ on /partner-with-us, which shows it, and not a second time on /help", () => {
    const partnerQuestions = contentPage("help")!.sections!.find((s) => s.id === "partner-faq")!.faqs!.map((f) => f.question);
    expect(contentPage("partner-with-us")!.sections!.flatMap((s) => s.faqs ?? []).map((f) => f.question)).toEqual(partnerQuestions);
    const questions = (path: string) =>
      (structuredData(seoPage(path)!, ORIGIN).find((o) => o["@type"] === "FAQPage")?.mainEntity as Array<{ name: string }>).map((q) => q.name);
    expect(questions("/partner-with-us")).toEqual(partnerQuestions);
    expect(questions("/help").length).toBeGreaterThan(0);
    expect(questions("/help").some((q) => partnerQuestions.includes(q))).toBe(false);
  });

  it("prices a plan as the page does: the year with 18% GST, and the month before it", () => {
    const growth = structuredData(seoPage("/old-pricing")!, ORIGIN).find((o) => o.name === "Growth") as { offers: { price: string; priceSpecification: Array<{ price: string }> } };
    // ₹1,499 a month, billed yearly: 17,988 + 18% GST = 21,225.84.
    expect(growth.offers.price).toBe("21225.84");
    expect(growth.offers.priceSpecification[1].price).toBe("1499.00");
  });
});
