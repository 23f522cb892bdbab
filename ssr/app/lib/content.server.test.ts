import { describe, expect, it } from "vitest";
import contact from "../../../shared/content/contact.json";
import { routes } from "../../../shared/route-table";
import {
  blogArticle,
  blogArticles,
  categories,
  contactPage,
  contentPage,
  helpArticle,
  helpArticles,
  helpIndex,
  policy,
} from "./content.server";

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
      const page = policy(entry.id);
      expect(page, entry.id).toBeDefined();
      expect(page!.html).toContain("Last updated: 1 November 2026");
      expect(page!.html, entry.id).not.toMatch(/\{[a-zA-Z]+\}/);
      expect(page!.html).toContain("Omnibus Commerce Private Limited");
    }
    expect(policy("no-such-policy")).toBeUndefined();
  });

  it("turns Markdown into HTML with linkable section headings", () => {
    const html = policy("privacy-policy")!.html;
    expect(html).toContain('<h2 id="your-rights">5. Your rights</h2>');
    expect(html).toMatch(/<a href="\/cookie-policy">cookie policy<\/a>/);
    expect(html).not.toContain("## ");
  });

  it("lists blog articles newest first and renders each", () => {
    const list = blogArticles();
    expect(list.length).toBeGreaterThanOrEqual(3);
    expect([...list].sort((a, b) => b.date.localeCompare(a.date))).toEqual(list);
    for (const summary of list) {
      const article = blogArticle(summary.slug);
      expect(article?.html, summary.slug).toContain("<h2");
      expect(article && "body" in article).toBe(false);
    }
    expect(blogArticle("no-such-article")).toBeUndefined();
  });

  it("has the success story the landing page links to, in a known help category", () => {
    const story = helpArticle("success-story-kaveri-handlooms");
    expect(story?.category).toBe("success-stories");
    expect(story?.title).toMatch(/Kaveri Handlooms/);
    const known = categories.map((c) => c.slug);
    for (const article of helpArticles()) expect(known).toContain(article.category);
    expect(helpIndex().flatMap((c) => c.articles)).toHaveLength(helpArticles().length);
  });

  it("links only to pages that exist", () => {
    const paths = new Set(routes.map((r) => r.path));
    const exists = (href: string) => {
      const path = href.split(/[?#]/)[0];
      if (paths.has(path)) return true;
      const blog = path.match(/^\/blog\/article\/(.+)$/);
      if (blog) return Boolean(blogArticle(blog[1]));
      const help = path.match(/^\/help\/category\/article\/(.+)$/);
      if (help) return Boolean(helpArticle(help[1]));
      const category = path.match(/^\/help\/category\/(.+)$/);
      return Boolean(category && categories.some((c) => c.slug === category[1]));
    };
    const html = [
      ...blogArticles().map((a) => blogArticle(a.slug)!.html),
      ...helpArticles().map((a) => helpArticle(a.slug)!.html),
      ...["terms-of-use", "privacy-policy", "cookie-policy", "disclaimer"].map((s) => policy(s)!.html),
    ].join("\n");
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
    const html = policy("cookie-policy")!.html;
    expect(html).toMatch(/<div class="table-scroll" tabindex="0"><table>[\s\S]*<\/table><\/div>/);
  });
});
