// Generic content pages (/partner-with-us, /ombre, /forge, /omnibus-university,
// /help, /help-centre, /blog): their copy from shared/content/pages.json by
// route id, plus the article index on /blog and /help-centre. The pages that
// sell (/petpawlor, /petpawlor-order-complete, /old-pricing) are the same page
// with the journey's parts, in their own route module (shop-page.tsx), so the
// others never load that code.
import { data, Link, useLoaderData } from "react-router";
import { ArticleList, blogHref, helpCategoryHref, helpHref } from "~/components/content/article-list";
import type { BuyPetPawlor, OrderSummary } from "~/components/journey/journey";
import { Accordion } from "~/components/ui/accordion";
import { CardGrid } from "~/components/ui/card-grid";
import type { PricingPlans } from "~/components/ui/pricing-plans";
import { journeyOrder } from "~/lib/journey.server";
import { buttonStyles, SiteLink } from "~/components/ui/site-link";
import { blogArticles, contentLabels, contentPage, helpArticles, helpIndex, listPage, type ContentSection } from "~/lib/content.server";
import { Pager } from "~/components/content/pager";
import { routeMeta } from "~/lib/meta";
import { canonicalPath } from "~/lib/content-meta";
import { StaticMarkup } from "~/lib/static-markup";
import { SearchBox } from "~/components/search/search-box";
import { searchBoxLabels } from "~/lib/search.server";
import { routes } from "@omnibus/shared/route-table";
import type { Route } from "./+types/page";
import routeCopy from "virtual:route-copy";

export const handle = { routeCopy };
// A page of the blog's list names itself as canonical (?page=N).
export const meta: Route.MetaFunction = (args) => routeMeta({ ...args, location: { ...args.location, pathname: canonicalPath(args.location) } });

export function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const pathname = url.pathname.replace(/\/+$/, "");
  const entry = routes.find((route) => route.path === pathname);
  const page = entry && contentPage(entry.id);
  if (!page) throw data(null, { status: 404 });
  // The blog's older articles are on ?page=2, 3...: one past the last is no page.
  const list = page.list === "blog" ? listPage(request) : null;
  if (list && list.page > list.pages) throw data(null, { status: 404 });
  return {
    page,
    blog: page.list === "blog" ? blogArticles(request) : null,
    list,
    listBase: pathname,
    help: page.list === "help" ? helpIndex(request) : null,
    // The help centre and the blog have the search box (/search).
    search: ["help", "help-centre", "blog"].includes(entry.id) ? searchBoxLabels : null,
    // Every guide, newest first (not grouped by topic: the topics are listed above).
    allHelp: page.list === "help" ? helpArticles(request) : [],
    // /petpawlor-order-complete?order=<id>: what the signed-in buyer bought (the edge sends only their own order: route edgeData).
    order: entry.id === "petpawlor-order-complete" ? journeyOrder(request) : null,
    labels: {
      readMore: contentLabels.readMore,
      latestArticles: contentLabels.latestArticles,
      categories: contentLabels.categories,
      allArticles: contentLabels.allArticles,
      olderArticles: contentLabels.olderArticles,
      newerArticles: contentLabels.newerArticles,
      pageOf: contentLabels.pageOf,
      pagination: contentLabels.pagination,
    },
  };
}

/** The parts only the pages that sell render (shop-page.tsx passes them). */
export interface ShopParts {
  BuyPetPawlor: typeof BuyPetPawlor;
  OrderSummary: typeof OrderSummary;
  PricingPlans: typeof PricingPlans;
}

export default function ContentPagePage() {
  return <ContentPage />;
}

export function ContentPage({ shop }: { shop?: ShopParts }) {
  const { page, blog, list, listBase, help, allHelp, labels, order, search } = useLoaderData<typeof loader>();
  const ctas = page.ctas ?? [];
  const sections = page.sections ?? [];
  // Nothing on a content page moves but the shop's parts: the browser keeps
  // the server's markup of the rest as it is (lib/static-markup.tsx).
  const Box = shop ? "div" : StaticMarkup;
  return (
    <Box className="mx-auto max-w-7xl px-4 py-16 sm:px-6 lg:py-24">
      <header className="max-w-3xl">
        <p className="text-sm font-semibold tracking-wide text-brand-600 uppercase dark:text-brand-400">{page.eyebrow}</p>
        <h1 className="mt-3 text-4xl font-bold tracking-tight text-balance sm:text-5xl">{page.heading}</h1>
        <p className="mt-6 text-lg leading-8 text-gray-600 dark:text-gray-400">{page.intro}</p>
        {search && <SearchBox labels={search} className="mt-8" />}
        {ctas.length > 0 && (
          <div className="mt-10 flex flex-wrap gap-4">
            {ctas.map((cta, i) => (
              <SiteLink key={cta.label} to={cta.to} url={cta.url} className={i === 0 ? buttonStyles.primary : buttonStyles.secondary}>
                {cta.label}
              </SiteLink>
            ))}
          </div>
        )}
      </header>

      {order && shop && <shop.OrderSummary order={order} />}
      {page.buy === "petpawlor" && shop && <shop.BuyPetPawlor />}

      {sections.map((section) => (
        <PageSection key={section.heading} section={section} shop={shop} />
      ))}

      {blog && (
        <section className="mt-16">
          <h2 className="text-2xl font-bold tracking-tight">{labels.latestArticles}</h2>
          <div className="mt-6">
            <ArticleList articles={blog} readMore={labels.readMore} />
          </div>
          {list && <Pager base={listBase} page={list.page} pages={list.pages} labels={labels} />}
        </section>
      )}

      {help && (
        <>
          <section className="mt-16">
            <h2 className="text-2xl font-bold tracking-tight">{labels.categories}</h2>
            <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
              {help.map((category) => (
                <li key={category.slug}>
                  <Link
                    to={helpCategoryHref(category.slug)}
                    className="block h-full rounded-2xl border border-gray-200 p-6 transition hover:border-brand-500 dark:border-gray-800 dark:hover:border-brand-400"
                  >
                    <span className="text-lg font-semibold">{category.title}</span>
                    <span className="mt-2 block text-gray-600 dark:text-gray-400">{category.description}</span>
                  </Link>
                </li>
              ))}
            </ul>
          </section>
          <section className="mt-16">
            <h2 className="text-2xl font-bold tracking-tight">{labels.allArticles}</h2>
            <div className="mt-6">
              <ArticleList articles={allHelp} kind="help" readMore={labels.readMore} />
            </div>
          </section>
        </>
      )}
    </Box>
  );
}

function PageSection({ section, shop }: { section: ContentSection; shop?: ShopParts }) {
  const { text = [], items = [], plans = [], faqs = [] } = section;
  return (
    <section id={section.id} className="mt-20">
      <h2 className="text-2xl font-bold tracking-tight sm:text-3xl">{section.heading}</h2>
      {text.map((paragraph) => (
        <p key={paragraph} className="mt-4 max-w-3xl text-lg leading-8 text-gray-600 dark:text-gray-400">
          {paragraph}
        </p>
      ))}
      {items.length > 0 && (
        <div className="mt-8">
          <CardGrid items={items} />
        </div>
      )}
      {plans.length > 0 && shop && (
        <div className="mt-8">
          <shop.PricingPlans plans={plans} />
        </div>
      )}
      {faqs.length > 0 && (
        <div className="mt-8 max-w-3xl">
          <Accordion items={faqs} />
        </div>
      )}
    </section>
  );
}
