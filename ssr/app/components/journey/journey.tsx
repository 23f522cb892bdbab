// The merchant's journey past sign-up, one component per idea: a message
// from ?error=, an order's summary, and the PetPawlor buy box (the welcome
// with the next step is welcome-banner.tsx). Forms are plain HTML forms posting to the edge, so they
// work the same with and without JavaScript.
import { Link, useSearchParams } from "react-router";
import { buttonStyles } from "~/components/ui/site-link";
import { fill, journey, journeyMessage } from "~/lib/journey";
import type { JourneyOrder } from "~/lib/journey.server";
import { addons, charge, formatRupees } from "~/lib/plans";

/** The message for ?error=<code> after a form post without JavaScript (known codes only). */
export function JourneyAlert() {
  const [params] = useSearchParams();
  const message = journeyMessage(params.get("error"));
  if (!message) return null;
  return (
    <p role="alert" className="mt-6 rounded-lg bg-red-50 px-4 py-3 text-sm font-medium text-red-800 ring-1 ring-red-200 dark:bg-red-950/60 dark:text-red-200 dark:ring-red-900">
      {message}
    </p>
  );
}

/** What an order bought: quantity × item, subtotal, GST and total. */
export function OrderSummary({ order }: { order: JourneyOrder }) {
  const t = journey.orderComplete;
  return (
    <section aria-labelledby="order-heading" data-order={order.status} className="mt-10 max-w-xl rounded-2xl p-6 ring-1 ring-gray-200 dark:ring-gray-800">
      <h2 id="order-heading" className="text-lg font-semibold">
        {t.bought}: {fill(t.item, { quantity: order.quantity, name: order.name })}
      </h2>
      <dl className="mt-4 grid grid-cols-2 gap-y-2 text-sm">
        <dt className="text-gray-600 dark:text-gray-400">{t.subtotal}</dt>
        <dd className="text-right">{formatRupees(order.subtotalPaise)}</dd>
        <dt className="text-gray-600 dark:text-gray-400">{t.gst}</dt>
        <dd className="text-right">{formatRupees(order.gstPaise)}</dd>
        <dt className="font-semibold">{t.total}</dt>
        <dd className="text-right font-semibold">{formatRupees(order.totalPaise)}</dd>
      </dl>
      <p className="mt-4 text-sm font-medium" role="status">
        {order.status === "paid" ? t.paid : t.pending}
      </p>
    </section>
  );
}

/** PetPawlor's price and a buy button: a form posting to the edge (sign-in required; the edge says so). */
export function BuyPetPawlor() {
  const addon = addons.find((a) => a.id === "petpawlor");
  if (!addon) return null;
  const t = journey.petpawlor;
  const one = charge(addon.monthlyPaise, addon.billingMonths);
  const quantities = Array.from({ length: addon.maxQuantity }, (_, i) => i + 1);
  return (
    <section aria-labelledby="buy-petpawlor" id="buy" className="mt-20 max-w-xl rounded-3xl p-8 ring-1 ring-gray-200 dark:ring-gray-800">
      <h2 id="buy-petpawlor" className="text-2xl font-bold tracking-tight">
        {t.heading}
      </h2>
      <p className="mt-4">
        <span className="text-4xl font-bold tracking-tight" data-price>
          {formatRupees(addon.monthlyPaise)}
        </span>{" "}
        <span className="text-sm text-gray-500 dark:text-gray-400">{addon.period}</span>
      </p>
      <p className="mt-2 text-sm text-gray-600 dark:text-gray-400">{fill(t.total, { total: formatRupees(one.total) })}</p>
      <p className="mt-4 text-gray-600 dark:text-gray-400">{addon.description}</p>
      <JourneyAlert />
      <form method="post" action="/api/v1/petpawlor/license/purchase" className="mt-6 flex flex-wrap items-end gap-4">
        <div>
          <label htmlFor="petpawlor-quantity" className="block text-sm font-medium">
            {t.quantity}
          </label>
          <select id="petpawlor-quantity" name="quantity" defaultValue="1" className="mt-2 rounded-lg bg-white px-3 py-2 ring-1 ring-gray-300 dark:bg-gray-950 dark:ring-white/15">
            {quantities.map((q) => (
              <option key={q} value={q}>
                {q}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className={buttonStyles.primary}>
          {t.buy}
        </button>
      </form>
      <p className="mt-4 text-sm">
        <Link to="/login" className="font-semibold text-brand-600 hover:underline dark:text-brand-400">
          {t.signIn}
        </Link>{" "}
        ·{" "}
        <Link to="/register" className="font-semibold text-brand-600 hover:underline dark:text-brand-400">
          {t.register}
        </Link>
      </p>
    </section>
  );
}
