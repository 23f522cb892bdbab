// The landing page (SPEC §2 Landing page): hero with the app screenshot and
// five customer logos, Google sign-in, the feature grid (3 columns, 8 items),
// the AI section, three reasons, the success story; the footer comes from the
// layout. Copy is shared/content/landing.json, features features.json, logos
// logos.json; the loader fills in the configured demo-booking link for the
// hero and the Google section, the sections below read their own copy
// (components/landing/below-the-fold.tsx).
import landing from "@omnibus/shared/content/landing.json";
import logos from "@omnibus/shared/content/logos.json";
import { GoogleSection } from "~/components/auth/google-button";
import { Hero } from "~/components/landing/hero";
import { staticPart } from "~/lib/island";
import { routeMeta } from "~/lib/meta";
import { withSiteSettings } from "~/lib/site.server";
import type { Route } from "./+types/home";
import routeCopy from "virtual:route-copy";

export const handle = { routeCopy };
export const meta = routeMeta;

// Below the hero (the first view, also on a phone) every section is an island,
// drawn as it nears the viewport. None of them moves, so the browser keeps
// the server's markup as it is and never loads their code or their copy on a
// first visit; a client navigation to / loads both (staticPart, lib/island.tsx;
// components/landing/below-the-fold.tsx). The Google section moves: it is an
// island that hydrates as it nears the viewport or at the first interaction
// (components/auth/google-button.tsx).
const below = () => import("~/components/landing/below-the-fold");
const FeaturesSection = staticPart(below, "LandingFeatures", { island: true });
const AiSection = staticPart(below, "LandingAi", { island: true });
const Reasons = staticPart(below, "LandingReasons", { island: true });
const SuccessStory = staticPart(below, "LandingStory", { island: true });

export function loader() {
  const { hero, google } = withSiteSettings(landing);
  // Only what the first screen and the Google section show (their words travel with the page).
  return { landing: { hero, google }, logos: withSiteSettings(logos) };
}

export default function HomePage({ loaderData }: Route.ComponentProps) {
  const { landing, logos } = loaderData;
  return (
    <>
      <Hero hero={landing.hero} logos={logos} />
      <GoogleSection google={landing.google} />
      <FeaturesSection />
      <AiSection />
      <Reasons />
      <SuccessStory />
    </>
  );
}
