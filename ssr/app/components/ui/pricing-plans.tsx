// Plan cards: name, price and period, description, features and a call to
// action; the highlighted plan stands out. /old-pricing and the catalogue.
import { buttonStyles, SiteLink } from "./site-link";

export interface Plan {
  /** plans.json's id: the card's stable anchor, #plan-<id>. */
  id?: string;
  name: string;
  price: string;
  period?: string;
  description: string;
  features: string[];
  highlighted?: boolean;
  /** A line under the price, such as the GST the total includes. */
  note?: string;
  cta: { label: string; to?: string; url?: string };
}

export function PricingPlans({ plans, headingLevel: Heading = "h3" }: { plans: Plan[]; headingLevel?: "h2" | "h3" }) {
  return (
    <ul className="grid gap-6 md:grid-cols-2 xl:grid-cols-4">
      {plans.map((plan) => (
        <li
          key={plan.name}
          id={plan.id ? `plan-${plan.id}` : undefined}
          className={`flex flex-col rounded-3xl p-8 ring-1 ${
            plan.highlighted ? "bg-gray-900 text-white ring-gray-900 dark:bg-brand-600/20 dark:ring-brand-400" : "ring-gray-200 dark:ring-gray-800"
          }`}
        >
          <Heading className="text-lg font-semibold">{plan.name}</Heading>
          <p className="mt-4">
            <span className="text-4xl font-bold tracking-tight">{plan.price}</span>{" "}
            <span className={`text-sm ${plan.highlighted ? "text-gray-300" : "text-gray-500 dark:text-gray-400"}`}>{plan.period}</span>
          </p>
          {plan.note && <p className={`mt-1 text-sm ${plan.highlighted ? "text-gray-300" : "text-gray-500 dark:text-gray-400"}`}>{plan.note}</p>}
          <p className={`mt-4 ${plan.highlighted ? "text-gray-300" : "text-gray-600 dark:text-gray-400"}`}>{plan.description}</p>
          <PlanFeatures features={plan.features} />
          <SiteLink to={plan.cta.to} url={plan.cta.url} className={`mt-8 ${plan.highlighted ? buttonStyles.primary : buttonStyles.secondary}`}>
            {plan.cta.label}
            <span className="sr-only"> — {plan.name}</span>
          </SiteLink>
        </li>
      ))}
    </ul>
  );
}

/** A plan's features as a ticked list: the pricing cards' and /choose-plan's, one markup. */
export function PlanFeatures({ features, labelledBy }: { features: string[]; labelledBy?: string }) {
  return (
    <ul aria-labelledby={labelledBy} className="mt-6 flex-1 space-y-2 text-sm" data-plan-features>
      {features.map((feature) => (
        <li key={feature} className="flex gap-2">
          <span aria-hidden="true">✓</span>
          {feature}
        </li>
      ))}
    </ul>
  );
}
