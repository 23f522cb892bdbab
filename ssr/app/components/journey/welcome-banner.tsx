// The welcome a merchant still in onboarding sees, with the next step: its
// own module, so the pages that show it (the contact form's page, for a
// signed-in merchant only) load none of the journey's order and plan code.
// It also says where the confirmation link went and offers it again (a plain
// form: works without JavaScript; the edge answers ?verify=sent or =wait).
import { Link, useSearchParams } from "react-router";
import { buttonStyles } from "~/components/ui/site-link";
import { CHOOSE_PLAN_PATH, fill, journey } from "~/lib/journey";

export interface WelcomeProps {
  storeName: string;
  pending: boolean;
  /** The account's address and whether it is confirmed ('' when unknown). */
  email?: string;
  emailVerified?: boolean;
}

/** 'Your store … is created', the confirmation link's state and the next step, for a merchant still in onboarding. */
export function WelcomeBanner({ storeName, pending, email = "", emailVerified = false }: WelcomeProps) {
  const t = journey.welcome;
  const [params] = useSearchParams();
  const verify = params.get("verify");
  return (
    <section aria-labelledby="welcome-heading" data-welcome className="border-b border-emerald-200 bg-emerald-50 dark:border-emerald-900 dark:bg-emerald-950/40">
      <div className="mx-auto flex max-w-7xl flex-col gap-4 px-4 py-6 sm:flex-row sm:items-center sm:justify-between sm:px-6">
        <div>
          <h2 id="welcome-heading" className="text-lg font-semibold text-emerald-900 dark:text-emerald-100">
            {storeName ? fill(t.heading, { store: storeName }) : t.headingNoStore}
          </h2>
          <p className="mt-1 text-emerald-800 dark:text-emerald-200">{!storeName ? t.nameStore.intro : pending ? t.pendingIntro : t.intro}</p>
          {email && (
            <div role="status" data-verify={emailVerified ? "confirmed" : (verify ?? "pending")} className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-emerald-900 dark:text-emerald-100">
              <p>
                {emailVerified
                  ? fill(t.verified, { email })
                  : verify === "sent"
                    ? fill(t.resent, { email })
                    : verify === "wait"
                      ? t.resendWait
                      : fill(t.verifyTo, { email })}
              </p>
              {!emailVerified && (
                <form method="post" action="/api/v1/oaccount/verify-email/resend">
                  <button type="submit" className="font-semibold underline underline-offset-2 hover:no-underline">
                    {t.resend}
                  </button>
                </form>
              )}
            </div>
          )}
        </div>
        {/* An account without a store (Google sign-in) names it first, on the same page as the plans. */}
        <Link to={CHOOSE_PLAN_PATH} className={buttonStyles.primary}>
          {storeName ? journey.home.choosePlan : t.nameStore.heading}
        </Link>
      </div>
    </section>
  );
}
