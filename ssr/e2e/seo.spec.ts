// What a crawler and a link previewer read, read as they read it:
// the server's HTML as a bot gets it, parsed by libraries that are not the
// site's own: the sitemap (fast-xml-parser), every page of it for its
// JSON-LD (JSON.parse, checked against Google's structured-data guidelines
// type by type, and against what the page shows) and its link preview
// (open-graph-scraper, with the image fetched and measured by image-size),
// and the blog's and help centre's feeds (rss-parser).
import { expect, test, type APIRequestContext } from "@playwright/test";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { imageSize } from "image-size";
import { JSDOM } from "jsdom";
import ogs from "open-graph-scraper";
import Parser from "rss-parser";
import site from "@omnibus/shared/content/site.json" with { type: "json" };

const GOOGLEBOT = { "user-agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" };

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

interface SitemapUrl {
  loc: string;
  lastmod: string;
  images: string[];
}

async function readSitemap(request: APIRequestContext): Promise<SitemapUrl[]> {
  const res = await request.get("/sitemap.xml");
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toMatch(/^application\/xml/);
  const text = await res.text();
  expect(XMLValidator.validate(text)).toBe(true);
  const doc = new XMLParser({ isArray: (name) => name === "url" || name === "image:image" }).parse(text);
  return (doc.urlset.url as Json[]).map((u) => ({
    loc: String(u.loc),
    lastmod: String(u.lastmod ?? ""),
    images: ((u["image:image"] ?? []) as Json[]).map((i) => String(i["image:loc"])),
  }));
}

/** Pages, fetched once each as a crawler does. */
const pageCache = new Map<string, string>();
async function crawl(request: APIRequestContext, url: string): Promise<string> {
  let html = pageCache.get(url);
  if (html === undefined) {
    const res = await request.get(url, { headers: GOOGLEBOT });
    expect(res.status(), url).toBe(200);
    html = await res.text();
    pageCache.set(url, html);
  }
  return html;
}

const squash = (s: string | null | undefined) => (s ?? "").replace(/\s+/g, " ").trim();

/** What a reader sees of a page: its title, description, canonical URL, headline and text. */
function shown(html: string) {
  const doc = new JSDOM(html).window.document;
  doc.querySelectorAll("script, style, noscript").forEach((el: Element) => el.remove());
  return {
    doc,
    title: squash(doc.title),
    description: doc.querySelector('meta[name="description"]')?.getAttribute("content") ?? "",
    canonical: doc.querySelector('link[rel="canonical"]')?.getAttribute("href") ?? "",
    h1: squash(doc.querySelector("h1")?.textContent),
    text: squash(doc.body.textContent),
    links: [...doc.querySelectorAll("a[href]")].map((a) => a.getAttribute("href") ?? ""),
    times: [...doc.querySelectorAll("main time[datetime], article time[datetime], time[datetime]")].map((t) => t.getAttribute("datetime") ?? ""),
  };
}

/** An image URL answers 200 as a PNG or JPEG (what every previewer reads; a page's own pictures may be WebP); its pixel size. */
async function fetchImage(request: APIRequestContext, url: string, types = /^image\/(png|jpeg)$/) {
  const res = await request.get(url);
  expect(res.status(), url).toBe(200);
  expect(res.headers()["content-type"], url).toMatch(types);
  const size = imageSize(new Uint8Array(await res.body()));
  return { width: size.width, height: size.height, cacheControl: res.headers()["cache-control"] ?? "" };
}

/** ₹1,499 or ₹21,225.84, as the pages write rupees (paise only when there are some). */
function rupees(price: string): string {
  const n = Number(price);
  const digits = Number.isInteger(n) ? 0 : 2;
  return new Intl.NumberFormat("en-IN", { style: "currency", currency: "INR", minimumFractionDigits: digits, maximumFractionDigits: digits }).format(n);
}

const isoDate = (s: unknown) => typeof s === "string" && /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/.test(s) && !Number.isNaN(Date.parse(s));
const W3C_DATE = /^\d{4}(-\d{2}(-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?)?)?$/;

test.describe.configure({ mode: "serial" });

test("sitemap.xml: every URL with a valid lastmod not in the future, the home page's image, no demo or transactional page", async ({ request, baseURL }) => {
  const urls = await readSitemap(request);
  expect(urls.length).toBeGreaterThan(20);
  const now = Date.now();
  for (const u of urls) {
    expect(u.loc.startsWith(`${baseURL}/`), u.loc).toBe(true);
    expect(u.lastmod, `${u.loc} lastmod`).toMatch(W3C_DATE);
    expect(Date.parse(u.lastmod), `${u.loc} lastmod in the future`).toBeLessThanOrEqual(now);
    for (const bad of ["/blocks", "/blog/posts-", "/blog/post", "/login", "/register", "/petpawlor-order-complete"]) {
      expect(u.loc.slice(baseURL!.length), u.loc).not.toMatch(new RegExp(`^${bad}(/|$|-)`));
    }
  }
  const home = urls.find((u) => u.loc === `${baseURL}/`);
  expect(home?.images.length).toBeGreaterThan(0);
  for (const src of home!.images) await fetchImage(request, src, /^image\/(png|jpeg|webp)$/);
  // An article's lastmod is the date its page shows.
  for (const u of urls.filter((x) => x.loc.includes("/article/"))) {
    expect(shown(await crawl(request, u.loc)).times, u.loc).toContain(u.lastmod);
  }
});

// What search results show of a page: Google cuts a title past about 60
// characters and rewrites a description shorter than about 50 (or cuts one
// past about 160), so every indexable page keeps within those budgets.
const TITLE_MAX = 60;
const DESCRIPTION_MIN = 50;
const DESCRIPTION_MAX = 160;

test("every page of the sitemap has a title and a description within search results' budgets", async ({ request, baseURL }) => {
  test.slow(); // every page of the sitemap, rendered cold on a shared machine
  const over: string[] = [];
  for (const u of await readSitemap(request)) {
    const { doc } = shown(await crawl(request, u.loc));
    const title = squash(doc.title);
    const description = squash(doc.querySelector('meta[name="description"]')?.getAttribute("content"));
    const where = u.loc.slice(baseURL!.length) || "/";
    if (title.length > TITLE_MAX) over.push(`${where}: title of ${title.length} characters (budget ${TITLE_MAX}): ${title}`);
    if (description.length < DESCRIPTION_MIN || description.length > DESCRIPTION_MAX)
      over.push(`${where}: description of ${description.length} characters (budget ${DESCRIPTION_MIN}–${DESCRIPTION_MAX}): ${description}`);
  }
  expect(over).toEqual([]);
});

test("every page's JSON-LD has its type's required and recommended properties, saying what the page shows", async ({ request, baseURL }) => {
  test.setTimeout(240_000);
  const urls = (await readSitemap(request)).map((u) => u.loc);
  const typesByPath = new Map<string, string[]>();
  for (const url of urls) {
    const html = await crawl(request, url);
    const page = shown(html);
    const raw = new JSDOM(html).window.document.querySelectorAll('script[type="application/ld+json"]');
    expect(raw.length, `${url}: one JSON-LD script`).toBe(1);
    const text = raw[0].textContent ?? "";
    expect(text, `${url}: "<" is escaped inside the script`).not.toContain("<");
    const data = JSON.parse(text) as Json;
    expect(data["@context"]).toBe("https://schema.org");
    const graph = data["@graph"] as Json[];
    expect(Array.isArray(graph) && graph.length > 0, url).toBe(true);
    typesByPath.set(url.slice(baseURL!.length), graph.map((o) => o["@type"]));

    for (const o of graph) {
      const where = `${url} ${o["@type"]}`;
      switch (o["@type"]) {
        case "Organization": {
          // Google: Organization (logo, url; recommended name, address, sameAs...).
          expect(o.name, where).toBe("Omnibus");
          expect(page.text, where).toContain(o.legalName);
          expect(o.url, where).toBe(`${baseURL}/`);
          const logo = await fetchImage(request, o.logo);
          expect(Math.min(logo.width, logo.height), `${where} logo at least 112 px`).toBeGreaterThanOrEqual(112);
          const a = o.address;
          expect(a["@type"]).toBe("PostalAddress");
          for (const part of String(a.streetAddress).split(", ")) expect(page.text, `${where} street`).toContain(part);
          for (const key of ["addressLocality", "addressRegion", "postalCode"]) expect(page.text, `${where} ${key}`).toContain(a[key]);
          expect(a.addressCountry).toBe("IN");
          expect(page.text).toContain("India");
          expect(o.sameAs.length, where).toBeGreaterThan(0);
          for (const profile of o.sameAs) expect(page.links, `${where} sameAs ${profile} is a link of the page`).toContain(profile);
          break;
        }
        case "WebSite":
          expect(o.name, where).toBe("Omnibus");
          expect(o.url, where).toBe(`${baseURL}/`);
          break;
        case "BreadcrumbList": {
          // Google: itemListElement of ListItems with position, name and item (the last may omit item).
          const items = o.itemListElement as Json[];
          expect(items.length, where).toBeGreaterThanOrEqual(2);
          items.forEach((item, i) => {
            expect(item["@type"]).toBe("ListItem");
            expect(item.position).toBe(i + 1);
            expect(typeof item.name === "string" && item.name.length > 0, where).toBe(true);
            expect(String(item.item).startsWith(`${baseURL}/`), where).toBe(true);
          });
          expect(items[0].item).toBe(`${baseURL}/`);
          const last = items.at(-1)!;
          expect(last.item, where).toBe(page.canonical);
          expect(`${page.title} ${page.h1}`, `${where}: the last crumb names this page`).toContain(last.name);
          for (const item of items.slice(1, -1)) {
            const parent = shown(await crawl(request, item.item));
            expect(`${parent.title} ${parent.h1}`, `${where}: ${item.item} is called ${item.name}`).toContain(item.name);
          }
          break;
        }
        case "BlogPosting":
        case "Article": {
          // Google: Article (recommended: author with name and url, dateModified, datePublished, headline, image).
          expect(o.headline, where).toBe(page.h1);
          expect(o.headline.length, where).toBeLessThanOrEqual(110);
          expect(o.description, where).toBe(page.description);
          expect(isoDate(o.datePublished) && isoDate(o.dateModified), where).toBe(true);
          expect(page.times, `${where}: the date shown`).toContain(o.datePublished);
          expect(page.times, `${where}: the last change shown`).toContain(o.dateModified);
          expect(o.dateModified >= o.datePublished, where).toBe(true);
          // The author is the company; its url the page about it (Google: "a page that uniquely identifies the author").
          expect(o.author.name, where).toBe("Omnibus");
          expect(o.author.url, where).toBe(`${baseURL}/about`);
          expect(shown(await crawl(request, o.author.url)).h1, `${where}: the author's page`).not.toBe("");
          expect(o.publisher.name, where).toBe("Omnibus");
          expect(o.publisher.url, where).toBe(`${baseURL}/`);
          const publisherLogo = await fetchImage(request, o.publisher.logo.url);
          expect(Math.min(publisherLogo.width, publisherLogo.height), `${where} publisher logo at least 112 px`).toBeGreaterThanOrEqual(112);
          // Google: article images at least 1200 px wide (and 50K pixels), in a format it indexes.
          expect(o.image.length, where).toBeGreaterThan(0);
          for (const src of o.image) {
            const image = await fetchImage(request, src);
            expect([image.width, image.height], `${where} image ${src}`).toEqual([1200, 630]);
          }
          expect(o.mainEntityOfPage["@id"], where).toBe(page.canonical);
          expect(page.text, `${where} section`).toContain(o.articleSection);
          break;
        }
        case "FAQPage": {
          // Google: FAQPage mainEntity of Questions, each with name and acceptedAnswer.text, all visible.
          expect(o.mainEntity.length, where).toBeGreaterThan(0);
          for (const q of o.mainEntity as Json[]) {
            expect(q["@type"]).toBe("Question");
            expect(page.text, `${where} question`).toContain(squash(q.name));
            expect(q.acceptedAnswer["@type"]).toBe("Answer");
            expect(page.text, `${where} answer`).toContain(squash(q.acceptedAnswer.text));
          }
          break;
        }
        case "Product": {
          // Google: Product snippet (name; offers with price and priceCurrency; recommended description, image, brand).
          expect(page.text, `${where} name`).toContain(o.name);
          expect(page.text, `${where} description`).toContain(o.description);
          expect(o.brand.name).toBe("Omnibus");
          const productImage = await fetchImage(request, o.image);
          expect([productImage.width, productImage.height], `${where} image ${o.image}`).toEqual([1200, 630]);
          const offer = o.offers;
          expect(offer["@type"]).toBe("Offer");
          expect(offer.priceCurrency).toBe("INR");
          expect(offer.price, where).toMatch(/^\d+(\.\d{2})?$/);
          expect(offer.url).toBe(page.canonical);
          expect(offer.availability).toBe("https://schema.org/InStock");
          // The price with GST and the monthly price before it, each as the page writes it.
          const [withGst, monthly] = offer.priceSpecification as Json[];
          expect(withGst.price).toBe(offer.price);
          expect(withGst.valueAddedTaxIncluded).toBe(true);
          expect(monthly.valueAddedTaxIncluded).toBe(false);
          if (Number(offer.price) > 0) expect(page.text, `${where} price with GST`).toContain(rupees(offer.price));
          expect(page.text, `${where} monthly price`).toContain(rupees(monthly.price));
          break;
        }
        default:
          throw new Error(`${where}: a type this test does not check`);
      }
    }
  }
  const types = (path: string) => typesByPath.get(path) ?? [];
  expect(types("/")).toEqual(expect.arrayContaining(["Organization", "WebSite"]));
  for (const [path, list] of typesByPath) if (path !== "/") expect(list, path).toContain("BreadcrumbList");
  expect(types("/partner-with-us")).toContain("FAQPage");
  expect(types("/old-pricing")).toEqual(expect.arrayContaining(["Product", "FAQPage"]));
  expect(types("/petpawlor")).toContain("Product");
  const blogArticle = [...typesByPath.keys()].find((p) => p.startsWith("/blog/article/"))!;
  const helpArticle = [...typesByPath.keys()].find((p) => p.startsWith("/help/category/article/"))!;
  expect(types(blogArticle)).toContain("BlogPosting");
  expect(types(helpArticle)).toContain("Article");
});

test("every page's link preview, as open-graph-scraper reads it: its title, description, URL and its own 1200×630 image", async ({ request, baseURL }) => {
  test.setTimeout(240_000);
  const urls = (await readSitemap(request)).map((u) => u.loc);
  const images = new Map<string, string>();
  for (const url of urls) {
    const html = await crawl(request, url);
    const page = shown(html);
    const { result, error } = await ogs({ html });
    expect(error, url).toBe(false);
    expect(result.ogTitle, url).toBe(page.title);
    expect(result.ogDescription, url).toBe(page.description);
    expect(result.ogUrl, url).toBe(url);
    const article = url.includes("/article/");
    expect(result.ogType, url).toBe(article ? "article" : "website");
    if (article) {
      const meta = (p: string) => page.doc.querySelector(`meta[property="${p}"]`)?.getAttribute("content") ?? "";
      expect(page.times, url).toContain(meta("article:published_time"));
      expect(isoDate(meta("article:modified_time")), url).toBe(true);
      expect(meta("article:section"), url).not.toBe("");
      // Open Graph: article:author is a profile URL (the company's page), not a name.
      expect(meta("article:author"), url).toBe(`${baseURL}/about`);
    }
    const image = result.ogImage?.[0];
    // Its own image: the build's, or the one the edge drew when the article was published (decision 0066).
    expect([`${baseURL}/assets/og/`, `${baseURL}/media/og/`].some((p) => image?.url.startsWith(p)), `${url}: its own image, ${image?.url}`).toBe(true);
    expect([image?.width, image?.height].map(Number), url).toEqual([1200, 630]);
    expect(result.twitterImage?.[0]?.url, url).toBe(image!.url);
    expect(result.twitterCard).toBe("summary_large_image");
    // The image's text alternative says what it shows: "<section>: <the page's title>".
    const alt = page.doc.querySelector('meta[property="og:image:alt"]')?.getAttribute("content") ?? "";
    expect(alt, url).toMatch(/^.+: .+$/);
    expect(page.title, url).toContain(alt.slice(alt.indexOf(": ") + 2));
    const fetched = await fetchImage(request, image!.url);
    expect([fetched.width, fetched.height], url).toEqual([1200, 630]);
    expect(fetched.cacheControl, url).toBe("public, max-age=31536000, immutable");
    expect(images.get(image!.url), `${url} shares its image with another page`).toBeUndefined();
    images.set(image!.url, url);
  }
});

test("a page with no preview of its own (template demos, transactional pages) shows the site's generic card, whole", async ({ request, baseURL }) => {
  // lib/meta.ts says twitter:card=summary_large_image on every page: a card without its image is a broken preview.
  for (const path of ["/blocks/cards", "/blog/posts-2", "/blog/post"]) {
    const url = `${baseURL}${path}`;
    const html = await crawl(request, url);
    const { result, error } = await ogs({ html });
    expect(error, url).toBe(false);
    expect(result.ogType, url).toBe("website");
    expect(result.twitterCard, url).toBe("summary_large_image");
    const image = result.ogImage?.[0];
    expect(image?.url, url).toBe(`${baseURL}/og-image.jpg`);
    expect(result.twitterImage?.[0]?.url, url).toBe(image!.url);
    const fetched = await fetchImage(request, image!.url);
    // The size the tags claim is the file's.
    expect([fetched.width, fetched.height], url).toEqual([Number(image!.width), Number(image!.height)]);
    expect([fetched.width, fetched.height], url).toEqual([1200, 630]);
    const alt = shown(html).doc.querySelector('meta[property="og:image:alt"]')?.getAttribute("content");
    expect(alt, url).toMatch(/^Omnibus: .+/);
  }
});

test("the feed's other names redirect to it: /feed.xml and /feed answer 301 to /rss.xml", async ({ request }) => {
  for (const path of ["/feed.xml", "/feed"]) {
    const res = await request.get(path, { maxRedirects: 0 });
    expect(res.status(), path).toBe(301);
    expect(res.headers().location, path).toBe("/rss.xml");
  }
});

const attrs = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@", isArray: (name) => ["item", "entry", "link", "atom:link", "author"].includes(name) });
/** An element's text, whether the parser made it a string or an object with attributes. */
const text = (el: unknown) => String(typeof el === "object" && el !== null ? ((el as Json)["#text"] ?? "") : (el ?? "")).trim();
const rfc822 = (s: string) => /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} ([+-]\d{4}|GMT|UT)$/.test(s) && !Number.isNaN(Date.parse(s));
const rfc3339 = (s: string) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(s) && !Number.isNaN(Date.parse(s));

/** RSS 2.0's required elements (channel: title, link, description; item: title or description), and what the W3C validator asks: atom:link rel=self, a permalink guid and a pubDate per item. */
function checkRss(xml: string, self: string, where: string) {
  const rss = attrs.parse(xml).rss as Json;
  expect(rss["@version"], where).toBe("2.0");
  expect(rss["@xmlns:atom"], where).toBe("http://www.w3.org/2005/Atom");
  const channel = rss.channel as Json;
  for (const key of ["title", "link", "description"]) expect(text(channel[key]?.[0] ?? channel[key]), `${where} channel ${key}`).not.toBe("");
  expect(channel["atom:link"], `${where} atom:link`).toEqual([{ "@href": self, "@rel": "self", "@type": "application/rss+xml" }]);
  expect(channel.item.length, where).toBeGreaterThan(0);
  for (const item of channel.item as Json[]) {
    const link = text(item.link[0]);
    expect(text(item.title), `${where} item title`).not.toBe("");
    expect(text(item.description), `${where} ${link} description`).not.toBe("");
    expect(item.guid["@isPermaLink"], `${where} ${link} guid`).toBe("true");
    expect(text(item.guid), `${where} ${link} guid`).toBe(link);
    expect(rfc822(text(item.pubDate)), `${where} ${link} pubDate ${item.pubDate}`).toBe(true);
  }
}

/** RFC 4287's required elements: the feed's id, title, updated and author (no entry has its own), a rel=self link; each entry's id, title, updated and its page's link. */
function checkAtom(xml: string, self: string, page: string, where: string) {
  const feed = attrs.parse(xml).feed as Json;
  expect(feed["@xmlns"], where).toBe("http://www.w3.org/2005/Atom");
  for (const key of ["id", "title"]) expect(text(feed[key]), `${where} ${key}`).not.toBe("");
  expect(rfc3339(text(feed.updated)), `${where} updated ${feed.updated}`).toBe(true);
  expect(text(feed.author?.[0]?.name), `${where} author`).not.toBe("");
  const links = (feed.link as Json[]).map((l) => [l["@rel"], l["@href"]]);
  expect(links, where).toEqual(expect.arrayContaining([["self", self], ["alternate", page]]));
  expect(feed.entry.length, where).toBeGreaterThan(0);
  let newest = "";
  for (const entry of feed.entry as Json[]) {
    const id = text(entry.id);
    expect(id, `${where} entry id`).not.toBe("");
    expect(text(entry.title), `${where} ${id} title`).not.toBe("");
    expect(rfc3339(text(entry.updated)), `${where} ${id} updated`).toBe(true);
    expect(text(entry.published) <= text(entry.updated), `${where} ${id} published before updated`).toBe(true);
    expect((entry.link as Json[]).some((l) => (l["@rel"] ?? "alternate") === "alternate" && l["@href"] === id), `${where} ${id} links its page`).toBe(true);
    if (text(entry.updated) > newest) newest = text(entry.updated);
  }
  expect(text(feed.updated), `${where}: the feed changed when its newest entry did`).toBe(newest);
}

for (const feeds of [
  { name: "blog", page: "/blog", articles: "/blog/article/" },
  { name: "help centre", page: "/help", articles: "/help/category/article/" },
]) {
  test(`the ${feeds.name} announces its RSS and Atom feeds; a feed reader parses each with every article, whole, in the site's language`, async ({ request, baseURL }) => {
    test.setTimeout(120_000);
    const articles = (await readSitemap(request)).map((u) => u.loc).filter((loc) => loc.startsWith(`${baseURL}${feeds.articles}`));
    expect(articles.length).toBeGreaterThan(0);
    const index = shown(await crawl(request, `${baseURL}${feeds.page}`));
    const alternates = [...index.doc.querySelectorAll('link[rel="alternate"]')].map((l) => ({ type: l.getAttribute("type"), href: l.getAttribute("href") ?? "" }));
    expect(alternates.map((a) => a.type).sort()).toEqual(["application/atom+xml", "application/rss+xml"]);
    // An article page names the same feeds.
    const onArticle = shown(await crawl(request, articles[0])).doc.querySelectorAll('link[rel="alternate"]');
    expect([...onArticle].map((l) => l.getAttribute("href")).sort()).toEqual(alternates.map((a) => a.href).sort());
    // The article page is dated by its content: Last-Modified is a day the page shows (through the edge's page cache).
    for (let i = 0; i < 2; i++) {
      const lastModified = (await request.get(articles[0], { headers: GOOGLEBOT })).headers()["last-modified"] ?? "";
      expect(Number.isNaN(Date.parse(lastModified)), `${articles[0]} Last-Modified ${lastModified}`).toBe(false);
      expect(shown(await crawl(request, articles[0])).times, articles[0]).toContain(new Date(lastModified).toISOString().slice(0, 10));
    }

    const parser = new Parser({ customFields: { feed: ["language"], item: ["dc:creator"] } });
    for (const { type, href } of alternates) {
      expect(href.startsWith(`${baseURL}/`), href).toBe(true);
      const res = await request.get(href);
      expect(res.status(), href).toBe(200);
      expect(res.headers()["content-type"]).toBe(`${type}; charset=utf-8`);
      expect(res.headers()["cache-control"]).toMatch(/max-age=\d+/);
      // Dated by the newest article, as a reader's If-Modified-Since expects.
      expect(Number.isNaN(Date.parse(res.headers()["last-modified"] ?? "")), `${href} Last-Modified`).toBe(false);
      const xml = await res.text();
      expect(XMLValidator.validate(xml), href).toBe(true);
      const rss = type === "application/rss+xml";
      if (rss) checkRss(xml, href, href);
      else checkAtom(xml, href, `${baseURL}${feeds.page}`, href);
      const lang = rss ? text((attrs.parse(xml).rss as Json).channel.language) : (attrs.parse(xml).feed as Json)["@xml:lang"];
      expect(String(lang).toLowerCase(), `${href} language`).toBe(site.locale.toLowerCase());
      const feed = await parser.parseString(xml);
      expect(feed.title).toBe(index.title);
      expect(feed.link).toBe(`${baseURL}${feeds.page}`);
      expect(feed.feedUrl, `${href} names itself`).toBe(href);
      expect(feed.items.map((i) => i.link).sort(), `${href} has every article`).toEqual([...articles].sort());
      for (const item of feed.items) {
        const article = shown(await crawl(request, item.link!));
        expect(item.title, item.link).toBe(article.h1);
        expect(rss ? item.contentSnippet : item.summary, item.link).toBe(article.description);
        // The whole article: its first and last paragraphs are the page's.
        const whole = new JSDOM(rss ? (item as Json)["content:encoded"] : item.content).window.document;
        const paragraphs = [...whole.querySelectorAll("p")].map((p) => squash(p.textContent));
        expect(paragraphs.length, `${item.link} content`).toBeGreaterThan(1);
        expect(article.text, item.link).toContain(paragraphs[0]);
        expect(article.text, item.link).toContain(paragraphs[paragraphs.length - 1]);
        if (rss) expect((item as Json)["dc:creator"], `${item.link} author`).toBe("Omnibus");
        expect(isoDate(item.isoDate), item.link).toBe(true);
        expect(article.times).toContain(item.isoDate!.slice(0, 10));
      }
    }
  });
}
