// /test-payment?session=tm_…: the clearly labelled test-mode payment page
// that stands in for the provider's hosted page in development (billing's
// TestMode provider). Pay is a plain form to the edge, which confirms the
// payment the way a provider's webhook does and answers 303 onwards. Outside
// test mode the edge does not know the session and this page is a 404.
import { data, Link, useLoaderData } from "react-router";
import { buttonStyles } from "~/components/ui/site-link";
import { fill, journey } from "~/lib/journey";
import { testPayment } from "~/lib/journey.server";
import { routeMeta } from "~/lib/meta";
import { formatRupees } from "~/lib/plans";
import type { Route } from "./+types/test-payment";
import routeCopy from "virtual:route-copy";

export const handle = { routeCopy };
export const meta = routeMeta;

export function loader({ request }: Route.LoaderArgs) {
  const session = new URL(request.url).searchParams.get("session") ?? "";
  if (!/^tm_[A-Za-z0-9_-]{1,60}$/.test(session)) throw data(null, { status: 404 });
  // The edge sends the payment when the signed-in visitor owns it (route edgeData "payment").
  const found = testPayment(request);
  if (!found || found.session !== session) throw data(null, { status: 404 });
  const { order, cancelUrl } = found;
  return { order, session, cancelUrl };
}

export default function TestPaymentPage() {
  const { order, session, cancelUrl } = useLoaderData<typeof loader>();
  const t = journey.testPayment;
  return (
    <section className="mx-auto flex w-full max-w-md flex-1 flex-col justify-center px-6 py-16">
      <p className="self-start rounded-full bg-amber-400 px-3 py-1 text-xs font-bold tracking-widest text-amber-950" data-test-mode>
        {t.badge}
      </p>
      <h1 className="mt-4 text-3xl font-bold tracking-tight">{t.heading}</h1>
      <p className="mt-4 text-gray-600 dark:text-gray-400">{t.intro}</p>
      <dl className="mt-8 grid grid-cols-2 gap-y-2 rounded-2xl p-6 ring-2 ring-amber-400">
        <dt className="text-gray-600 dark:text-gray-400">{t.item}</dt>
        <dd className="text-right">
          {order.quantity} × {order.name}
        </dd>
        <dt className="text-gray-600 dark:text-gray-400">{t.amount}</dt>
        <dd className="text-right font-semibold">{formatRupees(order.totalPaise)}</dd>
      </dl>
      {order.status === "paid" ? (
        <p className="mt-6 font-medium" role="status">
          {t.paid}
        </p>
      ) : (
        <form method="post" action={`/api/v1/payments/test-mode/${session}/pay`} className="mt-8">
          <button type="submit" className={`w-full ${buttonStyles.primary}`}>
            {fill(t.pay, { total: formatRupees(order.totalPaise) })}
          </button>
        </form>
      )}
      <Link to={cancelUrl} className="mt-6 text-center font-semibold text-brand-600 hover:underline dark:text-brand-400">
        {t.cancel}
      </Link>
    </section>
  );
}
