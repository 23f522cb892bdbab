// The server's structured data and page list (lib/seo.server.tsx,
// structured-data.server.ts). e2e/seo.spec.ts reads the same from the real
// server's HTML with outside parsers; these pin the rules that need no server.
import { describe, expect, it } from "vitest";
import { routes } from "../../../shared/route-table";
import { blogArticles, contentPage, helpArticles } from "./content.server";
import { seoHead, seoPage, seoPages, structuredData } from "./seo.server";
import { jsonLdText } from "./structured-data.server";

const ORIGIN = "https://omnibus.example";
const types = (path: string) => structuredData(seoPage(path)!, ORIGIN).map((o) => o["@type"]);

describe("jsonLdText", () => {
  it("lets nothing close the <script> or open a comment, and means the same JSON", () => {
    const hostile = { "@type": "Thing", name: "</script><script>alert(1)</script><!-- & \u2028" };
    const text = jsonLdText([hostile]);
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(text)).toEqual({ "@context": "https://schema.org", "@graph": [hostile] });
  });
});

describe("seoPages", () => {
  it("has every page without parameters (the demos and transactional pages excepted) and every article and help topic", () => {
    const paths = seoPages().map((p) => p.path);
    for (const r of routes.filter((r) => !/[:*]/.test(r.path) && !r.module.startsWith("_blocks/") && !r.noindex)) expect(paths, r.path).toContain(r.path);
    expect(paths).not.toContain("/petpawlor-order-complete");
    for (const a of blogArticles()) expect(paths).toContain(`/blog/article/${a.slug}`);
    for (const a of helpArticles()) expect(paths).toContain(`/help/category/article/${a.slug}`);
    expect(paths.some((p) => p.startsWith("/blocks"))).toBe(false);
  });

  it("gives articles og:type article, their date and section", () => {
    const a = blogArticles()[0];
    const page = seoPage(`/blog/article/${a.slug}/`)!;
    expect(page).toMatchObject({ type: "article", date: a.date, category: a.category, section: "Blog", title: a.title });
  });

  it("writes nothing for a path that is no page (the not-found page)", () => {
    expect(seoHead("/no-such-page", ORIGIN)).toBeNull();
    expect(seoHead("/blog/article/no-such-article", ORIGIN)).toBeNull();
  });
});

describe("structuredData", () => {
  it("marks up each page type with its types", () => {
    expect(types("/")).toEqual(["Organization", "WebSite"]);
    expect(types(`/blog/article/${blogArticles()[0].slug}`)).toEqual(["BreadcrumbList", "BlogPosting"]);
    expect(types(`/help/category/article/${helpArticles()[0].slug}`)).toEqual(["BreadcrumbList", "Article"]);
    expect(types("/partner-with-us")).toEqual(["BreadcrumbList", "FAQPage"]);
    expect(types("/old-pricing")).toEqual(["BreadcrumbList", "FAQPage", "Product", "Product", "Product"]);
    expect(types("/petpawlor")).toEqual(["BreadcrumbList", "Product"]);
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
