// The landing page (SPEC §2 Landing page): hero with the app screenshot and
// five customer logos, Google sign-in, the feature grid (3 columns, 8 items),
// the AI section, three reasons, the success story; the footer comes from the
// layout. Copy is shared/content/landing.json, features features.json, logos
// logos.json; the loader fills in the configured demo-booking link.
import features from "../../../../shared/content/features.json";
import landing from "../../../../shared/content/landing.json";
import logos from "../../../../shared/content/logos.json";
import type { ComponentProps } from "react";
import type { AiSection as AiSectionType } from "~/components/landing/ai-section";
import type { FeaturesSection as FeaturesSectionType } from "~/components/landing/features-section";
import { GoogleSection } from "~/components/auth/google-button";
import { Hero } from "~/components/landing/hero";
import type { Reasons as ReasonsType } from "~/components/landing/reasons";
import type { SuccessStory as SuccessStoryType } from "~/components/landing/success-story";
import { island } from "~/lib/island";
import { routeMeta } from "~/lib/meta";
import { withSiteSettings } from "~/lib/site.server";
import type { Route } from "./+types/home";
import routeCopy from "virtual:route-copy";

export const handle = { routeCopy };
export const meta = routeMeta;

// Below the hero (the first view, also on a phone) every section is an island:
// server-rendered, its code loaded as it nears the viewport (lib/island.tsx).
const FeaturesSection = island<ComponentProps<typeof FeaturesSectionType>>(() => import("~/components/landing/features-section"), "FeaturesSection");
const AiSection = island<ComponentProps<typeof AiSectionType>>(() => import("~/components/landing/ai-section"), "AiSection");
const Reasons = island<ComponentProps<typeof ReasonsType>>(() => import("~/components/landing/reasons"), "Reasons");
const SuccessStory = island<ComponentProps<typeof SuccessStoryType>>(() => import("~/components/landing/success-story"), "SuccessStory");

export function loader() {
  return {
    landing: withSiteSettings(landing),
    // Only what the page shows: the feature grid's limit, the hero's logo count.
    features: features.features.slice(0, landing.features.limit),
    logos: withSiteSettings(logos),
  };
}

export default function HomePage({ loaderData }: Route.ComponentProps) {
  const { landing, features, logos } = loaderData;
  return (
    <>
      <Hero hero={landing.hero} logos={logos} />
      <GoogleSection google={landing.google} />
      <FeaturesSection section={landing.features} items={features} />
      <AiSection ai={landing.ai} />
      <Reasons reasons={landing.reasons} />
      <SuccessStory story={landing.story} />
    </>
  );
}
