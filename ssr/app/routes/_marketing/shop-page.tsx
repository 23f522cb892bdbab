// The content pages that sell: /petpawlor (the add-on's price and a buy
// button), /petpawlor-order-complete (what was bought) and /old-pricing (plan
// cards). The generic content page (page.tsx: same loader, same copy) with
// the journey's parts, which only these pages load.
import { BuyPetPawlor, OrderSummary } from "~/components/journey/journey";
import { PricingPlans } from "~/components/ui/pricing-plans";
import routeCopy from "virtual:route-copy";
import { ContentPage } from "./page";

export { loader, meta } from "./page";
export const handle = { routeCopy };

const shop = { BuyPetPawlor, OrderSummary, PricingPlans };

export default function ShopPage() {
  return <ContentPage shop={shop} />;
}
