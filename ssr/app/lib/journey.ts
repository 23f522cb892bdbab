// The merchant's journey in the browser: its words (shared/content/journey.json)
// and where a signed-in merchant's next step is.
import { ONBOARDING_STATUSES } from "~/components/auth/api";
import journey from "../../../shared/content/journey.json";

export { journey };

/** The page that lets a merchant choose a plan (the next step after registration). */
export const CHOOSE_PLAN_PATH = "/choose-plan";
export const MERCHANT_HOME_PATH = "/landing-page";

/** Fills {name} placeholders. */
export function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (whole, key: string) => (key in values ? String(values[key]) : whole));
}

/** The words for a ?error=<code> of journey.json; unknown codes show nothing. */
export function journeyMessage(code: string | null): string | null {
  if (!code) return null;
  const messages = journey.messages as Record<string, string>;
  return Object.hasOwn(messages, code) ? messages[code] : null;
}

/**
 * Where 'Get Started' and 'Create Store' (links to /register) lead a visitor:
 * /register when signed out; the next step for a signed-in merchant (choose
 * a plan during onboarding, the merchant home after).
 */
export function registerTarget(account: { isLoggedIn: boolean; omnicustomerStatus: string } | null | undefined): string {
  if (!account?.isLoggedIn) return "/register";
  return ONBOARDING_STATUSES.includes(account.omnicustomerStatus) ? CHOOSE_PLAN_PATH : MERCHANT_HOME_PATH;
}
