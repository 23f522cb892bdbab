import type landingJSON from "@omnibus/shared/content/landing.json";
import type logosJSON from "@omnibus/shared/content/logos.json";

/** The landing page's copy (shared/content/landing.json) after the server filled in the settings. */
export type LandingContent = typeof landingJSON;
export type LogosContent = typeof logosJSON;
export type LogoItem = LogosContent["logos"][number];
