// The landing page (SPEC §2 Landing page): hero with the app screenshot and
// five customer logos, Google sign-in, the feature grid (3 columns, 8 items),
// the AI section, three reasons, the success story; the footer comes from the
// layout. Copy is shared/content/landing.json, features features.json, logos
// logos.json; the loader fills in the configured demo-booking link.
import features from "../../../../shared/content/features.json";
import landing from "../../../../shared/content/landing.json";
import logos from "../../../../shared/content/logos.json";
import { AiSection } from "~/components/landing/ai-section";
import { FeaturesSection } from "~/components/landing/features-section";
import { GoogleSection } from "~/components/landing/google-section";
import { Hero } from "~/components/landing/hero";
import { Reasons } from "~/components/landing/reasons";
import { SuccessStory } from "~/components/landing/success-story";
import { routeMeta } from "~/lib/meta";
import { withSiteSettings } from "~/lib/site.server";
import type { Route } from "./+types/home";

export const meta = routeMeta;

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
