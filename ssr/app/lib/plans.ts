// Plans and add-ons from shared/content/plans.json, the same data the edge
// charges from (edge/internal/billing). Money is integer paise; this module
// only formats it, and computes GST exactly as the edge does (half up).
import catalogue from "@omnibus/shared/content/plans.json";

export interface CataloguePlan {
  id: string;
  name: string;
  monthlyPaise: number | null;
  billingMonths: number;
  period: string;
  description: string;
  features: string[];
  cta: { label: string; to?: string; url?: string };
  highlighted?: boolean;
}

export interface CatalogueAddon {
  id: string;
  name: string;
  monthlyPaise: number;
  billingMonths: number;
  maxQuantity: number;
  period: string;
  description: string;
}

export const plans = catalogue.plans as CataloguePlan[];
export const addons = catalogue.addons as CatalogueAddon[];
export const GST_BASIS_POINTS = catalogue.gstBasisPoints;

/** GST on an amount in paise, rounded half up to the paise (integers only). */
export function gstPaise(amountPaise: number, basisPoints = GST_BASIS_POINTS): number {
  return Math.floor((amountPaise * basisPoints + 5_000) / 10_000);
}

/** ₹1,499 or ₹3,237.84: Indian digit grouping, paise shown only when there are some. */
export function formatRupees(paise: number): string {
  const digits = paise % 100 === 0 ? 0 : 2;
  // Made once per form and kept: making an Intl formatter costs far more than using one.
  rupees[digits] ??= new Intl.NumberFormat("en-IN", { style: "currency", currency: "INR", minimumFractionDigits: digits, maximumFractionDigits: digits });
  return rupees[digits].format(paise / 100);
}

const rupees: Intl.NumberFormat[] = [];

/** What one licence costs for its billing period: subtotal, GST and total in paise. */
export function charge(monthlyPaise: number, billingMonths: number, quantity = 1) {
  const subtotal = monthlyPaise * billingMonths * quantity;
  const gst = gstPaise(subtotal);
  return { subtotal, gst, total: subtotal + gst };
}

/** '+ 18% GST: ₹21,225.84 a year with GST' for a paid plan; '' for free or on-request prices. */
export function gstNote(monthlyPaise: number | null, billingMonths: number): string {
  if (!monthlyPaise) return "";
  const { total } = charge(monthlyPaise, billingMonths);
  const rate = GST_BASIS_POINTS / 100;
  const per = billingMonths === 12 ? "a year" : `per ${billingMonths} months`;
  return `+ ${rate}% GST: ${formatRupees(total)} ${per} with GST`;
}

/** The price as the pricing page shows it: '₹1,499', '₹0' or 'Custom'. */
export function priceLabel(monthlyPaise: number | null): string {
  return monthlyPaise === null ? "Custom" : formatRupees(monthlyPaise);
}

/** Plans that can be chosen online (a price that is not on request). */
export const purchasablePlans = () => plans.filter((plan) => plan.monthlyPaise !== null);

/** The plans as the pricing page and the catalogue show them (the edge charges the same numbers). */
export function cataloguePlans() {
  return plans.map((plan) => ({
    id: plan.id,
    name: plan.name,
    price: priceLabel(plan.monthlyPaise),
    period: plan.period,
    description: plan.description,
    features: plan.features,
    cta: plan.cta,
    highlighted: plan.highlighted,
    note: gstNote(plan.monthlyPaise, plan.billingMonths),
  }));
}
