// The landing page's sections below the hero, each reading its own copy:
// the browser keeps their server markup as it is (staticPart in
// routes/_marketing/home.tsx), so their words need not travel in the
// document's loader data; this chunk brings them for a client render of /
// (a client navigation), filled with the configured settings from the root
// loader as the server fills them (lib/site.ts).
import features from "@omnibus/shared/content/features.json";
import landingJSON from "@omnibus/shared/content/landing.json";
import { useMemo } from "react";
import { useRouteLoaderData } from "react-router";
import { fillPlaceholders, type SiteSettings } from "~/lib/site";
import { AiSection } from "./ai-section";
import { FeaturesSection } from "./features-section";
import { Reasons } from "./reasons";
import { SuccessStory } from "./success-story";

function useLanding() {
  const settings = (useRouteLoaderData("root") as { settings?: SiteSettings } | undefined)?.settings;
  if (!settings) throw new Error("The root loader did not provide the site settings (siteSettings())");
  return useMemo(() => fillPlaceholders(landingJSON, settings), [settings]);
}

export function LandingFeatures() {
  const landing = useLanding();
  return <FeaturesSection section={landing.features} items={features.features.slice(0, landing.features.limit)} />;
}

export function LandingAi() {
  return <AiSection ai={useLanding().ai} />;
}

export function LandingReasons() {
  return <Reasons reasons={useLanding().reasons} />;
}

export function LandingStory() {
  return <SuccessStory story={useLanding().story} />;
}
