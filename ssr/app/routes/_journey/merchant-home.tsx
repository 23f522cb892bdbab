// /landing-page: where a merchant past onboarding is sent (SPEC §4). The
// site's merchant home links to the admin console; when MERCHANT_APP_URL is
// another origin the edge redirects there before this renders
// (billing.Pages). Never a 404: signed out it offers sign-in, during
// onboarding the next step, right after paying it says the payment is being
// confirmed.
import { Link, useLoaderData } from "react-router";
import { buttonStyles } from "~/components/ui/site-link";
import { ONBOARDING_STATUSES } from "~/components/auth/api";
import { CHOOSE_PLAN_PATH, fill, journey, storeLabel } from "~/lib/journey";
import { journeyOrder, merchantOverview, type JourneyOrder } from "~/lib/journey.server";
import { noticeFrom } from "~/lib/notice.server";
import { Notice } from "~/components/notice/notice";
import { formatRupees } from "~/lib/plans";
import { routeMeta } from "~/lib/meta";
import type { Route } from "./+types/merchant-home";
import routeCopy from "virtual:route-copy";

export const handle = { routeCopy };
export const meta = routeMeta;

export function loader({ request }: Route.LoaderArgs) {
  // Both from the edge (route edgeData): the overview when signed in, the ?order= when it is the merchant's own.
  const overview = merchantOverview(request);
  const order = overview ? journeyOrder(request) : null;
  return { overview, justPaid: Boolean(order), order, notice: noticeFrom(request) };
}

export default function MerchantHomePage() {
  const { notice } = useLoaderData<typeof loader>();
  return (
    <>
      <Notice text={notice} />
      <MerchantHome />
    </>
  );
}

function MerchantHome() {
  const { overview, justPaid, order } = useLoaderData<typeof loader>();
  const t = journey.home;
  const box = "mx-auto w-full max-w-3xl px-4 py-16 sm:px-6 lg:py-24";
  if (!overview) {
    return (
      <section className={box}>
        <h1 className="text-4xl font-bold tracking-tight">{t.headingNoStore}</h1>
        <p className="mt-6 text-lg text-gray-600 dark:text-gray-400">{t.signedOut}</p>
        <Link to="/login" className={`mt-8 ${buttonStyles.primary}`}>
          {t.signIn}
        </Link>
      </section>
    );
  }
  const store = storeLabel(overview);
  // Right after the first plan is paid the merchant is new here, not back.
  const first = justPaid && order?.product === "plan";
  const heading = store ? fill(first ? t.headingFirst : t.heading, { store }) : first ? t.headingFirstNoStore : t.headingNoStore;
  if (ONBOARDING_STATUSES.includes(overview.omnicustomerStatus)) {
    // A plan already chosen waits for its payment: say so, rather than asking to choose one.
    const awaiting = overview.pendingPlanOrder;
    return (
      <section className={box}>
        <h1 className="text-4xl font-bold tracking-tight">{heading}</h1>
        <p className="mt-6 text-lg text-gray-600 dark:text-gray-400" role="status">
          {justPaid ? t.confirming : awaiting ? fill(t.awaitingPayment, { plan: awaiting.name }) : t.onboarding}
        </p>
        <Link to={CHOOSE_PLAN_PATH} className={`mt-8 ${buttonStyles.primary}`}>
          {awaiting && !justPaid ? t.payPlan : t.choosePlan}
        </Link>
      </section>
    );
  }
  return (
    <section className={box} data-merchant-home>
      <h1 className="text-4xl font-bold tracking-tight">{heading}</h1>
      {order?.status === "paid" && <PaidOrder order={order} plan={overview.plan} />}
      <p className="mt-6 text-lg text-gray-600 dark:text-gray-400">{fill(t.intro, { plan: overview.plan || "—" })}</p>
      <div className="mt-10 flex flex-wrap gap-4">
        <a href={overview.adminConsoleUrl} className={buttonStyles.primary}>
          {t.admin}
        </a>
        <Link to="/petpawlor#buy" className={buttonStyles.secondary}>
          {t.petpawlor}
        </Link>
      </div>
    </section>
  );
}

/** What was just paid (the ?order= the payment came back with): item, total, plan, receipt number and the next step. */
function PaidOrder({ order, plan }: { order: JourneyOrder; plan: string }) {
  const t = journey.home;
  const item = order.quantity > 1 ? `${order.quantity} × ${order.name}` : order.name;
  return (
    <div role="status" data-paid-order className="mt-8 rounded-2xl bg-green-50 p-6 text-green-900 ring-1 ring-green-600/20 dark:bg-green-500/10 dark:text-green-100 dark:ring-green-400/30">
      <h2 className="text-lg font-semibold">{t.paidHeading}</h2>
      <p className="mt-2">{fill(t.paid, { total: formatRupees(order.totalPaise), item })}</p>
      <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        {order.product === "plan" && plan && (
          <>
            <dt className="font-semibold">{t.plan}</dt>
            <dd>{plan}</dd>
          </>
        )}
        <dt className="font-semibold">{t.receipt}</dt>
        <dd data-receipt className="font-mono break-all">{order.id}</dd>
      </dl>
      <p className="mt-4">{t.next}</p>
    </div>
  );
}
