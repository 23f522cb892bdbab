// /landing-page: where a merchant past onboarding is sent (SPEC §4). The
// site's merchant home links to the admin console; when MERCHANT_APP_URL is
// another origin the edge redirects there before this renders
// (billing.Pages). Never a 404: signed out it offers sign-in, during
// onboarding the next step, right after paying it says the payment is being
// confirmed.
import { Link, useLoaderData } from "react-router";
import { buttonStyles } from "~/components/ui/site-link";
import { ONBOARDING_STATUSES } from "~/components/auth/api";
import { CHOOSE_PLAN_PATH, fill, journey } from "~/lib/journey";
import { merchantOverview } from "~/lib/journey.server";
import { routeMeta } from "~/lib/meta";
import type { Route } from "./+types/merchant-home";
import routeCopy from "virtual:route-copy";

export const handle = { routeCopy };
export const meta = routeMeta;

export async function loader({ request }: Route.LoaderArgs) {
  const overview = await merchantOverview(request);
  const orderId = new URL(request.url).searchParams.get("order");
  const justPaid = Boolean(orderId && overview?.orders.some((o) => o.id === orderId));
  return { overview, justPaid };
}

export default function MerchantHomePage() {
  const { overview, justPaid } = useLoaderData<typeof loader>();
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
  const heading = overview.storeName ? fill(t.heading, { store: overview.storeName }) : t.headingNoStore;
  if (ONBOARDING_STATUSES.includes(overview.omnicustomerStatus)) {
    return (
      <section className={box}>
        <h1 className="text-4xl font-bold tracking-tight">{heading}</h1>
        <p className="mt-6 text-lg text-gray-600 dark:text-gray-400" role="status">
          {justPaid ? t.confirming : t.onboarding}
        </p>
        <Link to={CHOOSE_PLAN_PATH} className={`mt-8 ${buttonStyles.primary}`}>
          {t.choosePlan}
        </Link>
      </section>
    );
  }
  return (
    <section className={box} data-merchant-home>
      <h1 className="text-4xl font-bold tracking-tight">{heading}</h1>
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
