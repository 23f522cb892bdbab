// Where a merchant goes next, by onboarding status (SPEC §4): the statuses
// and paths alone, so the links every page shows (SiteLink) can read them
// without the sign-in forms' code or the journey's words.

/** Statuses still in onboarding: sent to /contact-us. */
export const ONBOARDING_STATUSES = ["account_created", "pending_initial_license_payment"];

/** The page that lets a merchant choose a plan (the next step after registration). */
export const CHOOSE_PLAN_PATH = "/choose-plan";
export const MERCHANT_HOME_PATH = "/landing-page";

/**
 * Where 'Get Started' and 'Create Store' (links to /register) lead a visitor:
 * /register when signed out; the next step for a signed-in merchant (choose
 * a plan during onboarding, the merchant home after).
 */
export function registerTarget(account: { isLoggedIn: boolean; omnicustomerStatus: string } | null | undefined): string {
  if (!account?.isLoggedIn) return "/register";
  return ONBOARDING_STATUSES.includes(account.omnicustomerStatus) ? CHOOSE_PLAN_PATH : MERCHANT_HOME_PATH;
}
