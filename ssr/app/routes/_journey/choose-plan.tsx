// /choose-plan: the next step after registration. The signed-in merchant
// picks a plan of shared/content/plans.json; each button is a plain form
// posting to POST /api/v1/licenses/initialiseLicenses, which answers 303 to
// the payment page (or, for a free plan, the merchant home). Each card lists
// the plan's features; a plan priced on request (Enterprise) offers the way
// to sales instead of a button. An account without a store (made
// by Google sign-in) first names it here (StoreNameStep).
import { redirect, useLoaderData } from "react-router";
import { JourneyAlert } from "~/components/journey/journey";
import { StoreNameStep } from "~/components/journey/store-name-step";
import { buttonStyles } from "~/components/ui/site-link";
import { fill, journey, MERCHANT_HOME_PATH, storeLabel } from "~/lib/journey";
import { merchantOverview } from "~/lib/journey.server";
import { routeMeta } from "~/lib/meta";
import { charge, formatRupees, plans, priceLabel } from "~/lib/plans";
import { SiteLink } from "~/components/ui/site-link";
import type { Route } from "./+types/choose-plan";
import routeCopy from "virtual:route-copy";

export const handle = { routeCopy };
export const meta = routeMeta;

export function loader({ request }: Route.LoaderArgs) {
  const overview = merchantOverview(request);
  if (!overview) throw redirect("/register");
  if (overview.omnicustomerStatus === "active") throw redirect(MERCHANT_HOME_PATH);
  const pending = overview.pendingPlanOrder ?? null;
  return { storeName: storeLabel(overview), pending, needsStore: !overview.storeName };
}

export default function ChoosePlanPage() {
  const { storeName, pending, needsStore } = useLoaderData<typeof loader>();
  const t = journey.welcome;
  if (needsStore) {
    return (
      <div className="mx-auto max-w-7xl px-4 py-16 sm:px-6 lg:py-20">
        <header className="max-w-3xl">
          <h1 className="text-4xl font-bold tracking-tight text-balance sm:text-5xl">{t.nameStore.heading}</h1>
          <p className="mt-6 text-lg leading-8 text-gray-600 dark:text-gray-400">{t.nameStore.intro}</p>
        </header>
        <StoreNameStep />
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-7xl px-4 py-16 sm:px-6 lg:py-20">
      <header className="max-w-3xl">
        <h1 className="text-4xl font-bold tracking-tight text-balance sm:text-5xl">{storeName ? fill(t.heading, { store: storeName }) : t.headingNoStore}</h1>
        <p className="mt-6 text-lg leading-8 text-gray-600 dark:text-gray-400">{pending ? t.pendingIntro : t.intro}</p>
        <JourneyAlert />
        {pending?.paymentUrl && (
          <div className="mt-8 flex flex-wrap items-center gap-4" data-pending-order={pending.id}>
            <p className="text-gray-700 dark:text-gray-300">{fill(t.pendingOrder, { plan: pending.name, total: formatRupees(pending.totalPaise) })}</p>
            <a href={pending.paymentUrl} className={buttonStyles.primary}>
              {t.pay}
            </a>
          </div>
        )}
      </header>
      <ul className="mt-12 grid gap-6 md:grid-cols-2 xl:grid-cols-4">
        {plans.map((plan) => {
          const price = charge(plan.monthlyPaise ?? 0, plan.billingMonths);
          const featuresId = `choose-${plan.id}-features`;
          return (
            <li key={plan.id} id={`plan-${plan.id}`} className="flex flex-col rounded-3xl p-8 ring-1 ring-gray-200 dark:ring-gray-800">
              <h2 className="text-lg font-semibold">{plan.name}</h2>
              <p className="mt-4">
                <span className="text-4xl font-bold tracking-tight">{priceLabel(plan.monthlyPaise)}</span>{" "}
                <span className="text-sm text-gray-500 dark:text-gray-400">{plan.period}</span>
              </p>
              {price.total > 0 && (
                <p className="mt-1 text-sm text-gray-500 dark:text-gray-400">{fill(t.gstIncluded, { total: formatRupees(price.total), gst: formatRupees(price.gst) })}</p>
              )}
              <p className="mt-4 text-gray-600 dark:text-gray-400">{plan.description}</p>
              <h3 id={featuresId} className="sr-only">
                {fill(t.features, { plan: plan.name })}
              </h3>
              <ul aria-labelledby={featuresId} className="mt-6 flex-1 space-y-2 text-sm" data-plan-features>
                {plan.features.map((feature) => (
                  <li key={feature} className="flex gap-2">
                    <span aria-hidden="true">✓</span>
                    {feature}
                  </li>
                ))}
              </ul>
              {plan.monthlyPaise === null ? (
                <SiteLink to={plan.cta.to ?? "/contact-us"} className={`mt-8 w-full ${buttonStyles.secondary}`}>
                  {fill(t.contactSales, { plan: plan.name })}
                </SiteLink>
              ) : (
                <form method="post" action="/api/v1/licenses/initialiseLicenses" className="mt-8">
                  <input type="hidden" name="planId" value={plan.id} />
                  <button type="submit" className={`w-full ${plan.highlighted ? buttonStyles.primary : buttonStyles.secondary}`}>
                    {fill(t.choose, { plan: plan.name })}
                  </button>
                </form>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
