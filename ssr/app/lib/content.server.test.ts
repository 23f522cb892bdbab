import { describe, expect, it } from "vitest";
import contact from "@omnibus/shared/content/contact.json";
import { routes } from "@omnibus/shared/route-table";
import { contentRequest, fixtureContent, fixturePaths } from "./content-fixture";
import { blogArticle, blogArticles, contactPage, contentPage, helpArticle, helpArticles, helpCategory, helpIndex, pageContent, policy } from "./content.server";
import { CONTENT_HEADER } from "./http-names";

const policyOf = (slug: string) => policy(contentRequest(`/${slug}`), slug);

// The generic content page and the same page for the pages that sell.
const CONTENT_MODULES = ["_marketing/page.tsx", "_marketing/shop-page.tsx"];

describe("shared content", () => {
  it("has copy for every page the generic module renders and every contact page", () => {
    for (const entry of routes.filter((r) => CONTENT_MODULES.includes(r.module))) {
      const page = contentPage(entry.id);
      expect(page, entry.id).toBeDefined();
      expect(page?.heading && page.intro, entry.id).toBeTruthy();
    }
    for (const entry of routes.filter((r) => r.module === "_marketing/contact.tsx")) {
      expect(contactPage(entry.id), entry.id).toBeDefined();
    }
    expect(Object.keys(contact.pages).sort()).toEqual(routes.filter((r) => r.module === "_marketing/contact.tsx").map((r) => r.id).sort());
  });

  it("gives every page that sells (a buy button, plan cards, an order) the module that carries those parts", () => {
    // page.tsx renders them only when shop-page.tsx passes them: on a page of
    // the generic module they would be missing, not an error.
    for (const entry of routes.filter((r) => CONTENT_MODULES.includes(r.module))) {
      const page = contentPage(entry.id)!;
      const sells = Boolean(page.buy) || (page.sections ?? []).some((s) => (s.plans ?? []).length > 0) || entry.id === "petpawlor-order-complete";
      expect(entry.module, entry.id).toBe(sells ? "_marketing/shop-page.tsx" : "_marketing/page.tsx");
    }
  });

  it("fills the configured e-mail and phone into the contact copy", () => {
    const page = contactPage("contact-us");
    expect(page?.form.alternative).not.toMatch(/\{(email|phone)\}/);
    expect(page?.form.alternative).toMatch(/@/);
  });

  it("only shows fields the form knows", () => {
    for (const [id, page] of Object.entries(contact.pages)) {
      for (const field of page.fields) expect(Object.keys(contact.fields), `${id}: ${field}`).toContain(field);
    }
  });

  it("renders every policy with its date and no unfilled placeholder", () => {
    for (const entry of routes.filter((r) => r.module === "_marketing/policy.tsx")) {
      const page = policyOf(entry.id);
      expect(page, entry.id).toBeDefined();
      expect(page!.html).toContain("Last updated: 1 November 2026");
      expect(page!.html, entry.id).not.toMatch(/\{[a-zA-Z]+\}/);
      expect(page!.html).toContain("Omnibus Commerce Private Limited");
    }
    // Another page's policy, or none sent: no policy.
    expect(policy(contentRequest("/privacy-policy"), "terms-of-use")).toBeUndefined();
    expect(policy(new Request("http://127.0.0.1/disclaimer"), "disclaimer")).toBeUndefined();
  });

  it("shows the edge's HTML with its linkable section headings", () => {
    const html = policyOf("privacy-policy")!.html;
    expect(html).toContain('<h2 id="your-rights">5. Your rights</h2>');
    expect(html).toMatch(/<a href="\/cookie-policy">cookie policy<\/a>/);
    expect(html).not.toContain("## ");
  });

  it("takes the blog's list and each article from the page request, never from its own build", () => {
    const list = blogArticles(contentRequest("/blog"));
    expect(list.length).toBeGreaterThanOrEqual(3);
    expect([...list].sort((a, b) => b.date.localeCompare(a.date))).toEqual(list);
    for (const summary of list) {
      const path = `/blog/article/${summary.slug}`;
      const article = blogArticle(contentRequest(path), summary.slug);
      expect(article?.html, summary.slug).toContain("<h2");
      expect(article && "body" in article).toBe(false);
      // The header of another article's page does not answer for this one.
      expect(blogArticle(contentRequest(path), "no-such-article")).toBeUndefined();
    }
    expect(blogArticles(new Request("http://127.0.0.1/blog"))).toEqual([]);
  });

  it("reads an unreadable header as no content", () => {
    const request = new Request("http://127.0.0.1/blog", { headers: { [CONTENT_HEADER]: "%%%not-base64-json" } });
    expect(pageContent(request)).toEqual({});
  });

  it("has the success story the landing page links to, in a known help category", () => {
    const path = "/help/category/article/success-story-kaveri-handlooms";
    const story = helpArticle(contentRequest(path), "success-story-kaveri-handlooms");
    expect(story?.category).toBe("success-stories");
    expect(story?.title).toMatch(/^How Kaveri Handlooms/);
    expect(helpCategory(contentRequest(path), "success-stories")?.title).toBeTruthy();
    const index = contentRequest("/help-centre");
    const known = helpIndex(index).map((c) => c.slug);
    for (const article of helpArticles(index)) expect(known).toContain(article.category);
    expect(helpIndex(index).flatMap((c) => c.articles)).toHaveLength(helpArticles(index).length);
  });

  it("links only to pages that exist", () => {
    const paths = new Set([...routes.map((r) => r.path), ...fixturePaths()]);
    const exists = (href: string) => paths.has(href.split(/[?#]/)[0]);
    const html = fixturePaths()
      .map((p) => fixtureContent(p))
      .flatMap((c) => [c.article?.html ?? "", c.policy?.html ?? ""])
      .join("\n");
    const hrefs = [...html.matchAll(/href="(\/[^"]*)"/g)].map((m) => m[1]);
    const pageLinks = routes
      .filter((r) => CONTENT_MODULES.includes(r.module))
      .flatMap((r) => {
        const page = contentPage(r.id)!;
        return [...(page.ctas ?? []), ...(page.sections ?? []).flatMap((s) => [...(s.items ?? []).map((i) => i.link), ...(s.plans ?? []).map((p) => p.cta)])];
      })
      .flatMap((link) => (link?.to ? [link.to] : []));
    expect(hrefs.length + pageLinks.length).toBeGreaterThan(10);
    for (const href of [...hrefs, ...pageLinks]) expect(exists(href), href).toBe(true);
  });
});

describe("Markdown tables", () => {
  it("are wrapped so they scroll sideways on narrow screens", () => {
    const html = policyOf("cookie-policy")!.html;
    expect(html).toMatch(/<div class="table-scroll" tabindex="0"><table>[\s\S]*<\/table><\/div>/);
  });
});
