// Server only: schema.org JSON-LD objects, one builder per type, from the
// same content the pages show (Google Search Central's structured-data
// guides name each type's required and recommended properties; the e2e test
// e2e/seo.spec.ts checks them on every page). seo.server.ts picks the types a
// page carries; jsonLdText writes them safely into a <script>.

export type JsonLd = Record<string, unknown>;

const CONTEXT = "https://schema.org";

export interface OrganizationInput {
  url: string;
  name: string;
  legalName: string;
  logo: string;
  address: { streetAddress: string; addressLocality: string; addressRegion: string; postalCode: string; addressCountry: string };
  sameAs: string[];
}

/** The company (on /): name, logo, address and social profiles. */
export function organization(org: OrganizationInput): JsonLd {
  return {
    "@type": "Organization",
    "@id": `${org.url}/#organization`,
    name: org.name,
    legalName: org.legalName,
    url: `${org.url}/`,
    logo: org.logo,
    address: { "@type": "PostalAddress", ...org.address },
    sameAs: org.sameAs,
  };
}

/** The site itself (on /), published by the organisation. */
export function webSite({ url, name, description, inLanguage }: { url: string; name: string; description: string; inLanguage: string }): JsonLd {
  return {
    "@type": "WebSite",
    "@id": `${url}/#website`,
    name,
    url: `${url}/`,
    description,
    inLanguage,
    publisher: { "@id": `${url}/#organization` },
    // The site's search (/search?q=, rendered on the server): search engines may offer a search box for it.
    potentialAction: { "@type": "SearchAction", target: { "@type": "EntryPoint", urlTemplate: `${url}/search?q={search_term_string}` }, "query-input": "required name=search_term_string" },
  };
}

export interface ArticleInput {
  type: "BlogPosting" | "Article";
  url: string;
  headline: string;
  description: string;
  datePublished: string;
  dateModified: string;
  section: string;
  image: string;
  inLanguage: string;
  /** The organisation that writes the site's articles, and the page about it. */
  author: { name: string; url: string };
  /** The organisation that publishes them, its home page and logo. */
  publisher: { name: string; url: string; logo: string };
}

/** A blog article (BlogPosting) or a help article (Article). */
export function article(a: ArticleInput): JsonLd {
  return {
    "@type": a.type,
    headline: a.headline,
    description: a.description,
    datePublished: a.datePublished,
    dateModified: a.dateModified,
    author: { "@type": "Organization", name: a.author.name, url: a.author.url },
    publisher: { "@type": "Organization", name: a.publisher.name, url: a.publisher.url, logo: { "@type": "ImageObject", url: a.publisher.logo } },
    image: [a.image],
    articleSection: a.section,
    inLanguage: a.inLanguage,
    url: a.url,
    mainEntityOfPage: { "@type": "WebPage", "@id": a.url },
  };
}

/** The trail from the home page down to this one (absolute URLs). */
export function breadcrumbList(items: Array<{ name: string; url: string }>): JsonLd {
  return {
    "@type": "BreadcrumbList",
    itemListElement: items.map((item, i) => ({ "@type": "ListItem", position: i + 1, name: item.name, item: item.url })),
  };
}

/** A page of questions and their answers (plain text, as shown). */
export function faqPage(faqs: Array<{ question: string; answer: string }>): JsonLd {
  return {
    "@type": "FAQPage",
    mainEntity: faqs.map((faq) => ({ "@type": "Question", name: faq.question, acceptedAnswer: { "@type": "Answer", text: faq.answer } })),
  };
}

export interface ProductInput {
  name: string;
  description: string;
  image: string;
  brand: string;
  url: string;
  currency: string;
  /** What one licence costs for its billing period with GST, as the page shows it (rupees, 2 decimals). */
  priceWithGst: string;
  /** The monthly price before GST the page shows in large type (rupees, 2 decimals). */
  monthlyPrice: string;
  billingMonths: number;
}

/** A plan or add-on with its offer: the billing period's price with GST, and the monthly price before GST. */
export function product(p: ProductInput): JsonLd {
  return {
    "@type": "Product",
    name: p.name,
    description: p.description,
    image: p.image,
    brand: { "@type": "Brand", name: p.brand },
    offers: {
      "@type": "Offer",
      url: p.url,
      price: p.priceWithGst,
      priceCurrency: p.currency,
      availability: "https://schema.org/InStock",
      priceSpecification: [
        {
          "@type": "UnitPriceSpecification",
          price: p.priceWithGst,
          priceCurrency: p.currency,
          valueAddedTaxIncluded: true,
          referenceQuantity: { "@type": "QuantitativeValue", value: p.billingMonths, unitCode: "MON" },
        },
        {
          "@type": "UnitPriceSpecification",
          price: p.monthlyPrice,
          priceCurrency: p.currency,
          valueAddedTaxIncluded: false,
          referenceQuantity: { "@type": "QuantitativeValue", value: 1, unitCode: "MON" },
        },
      ],
    },
  };
}

/**
 * The text of a <script type="application/ld+json">: the objects as one
 * schema.org graph. "<" is written as \u003c (and ">", "&", U+2028, U+2029
 * likewise), so no content can close the script element or open a comment:
 * the JSON means the same, the HTML parser sees no tag.
 */
export function jsonLdText(objects: JsonLd[]): string {
  return JSON.stringify({ "@context": CONTEXT, "@graph": objects }).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
