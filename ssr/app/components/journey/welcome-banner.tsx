// The welcome a merchant still in onboarding sees, with the next step: its
// own module, so the pages that show it (the contact form's page, for a
// signed-in merchant only) load none of the journey's order and plan code.
import { Link } from "react-router";
import { buttonStyles } from "~/components/ui/site-link";
import { CHOOSE_PLAN_PATH, fill, journey } from "~/lib/journey";

/** 'Your store … is created' and the next step, for a merchant still in onboarding. */
export function WelcomeBanner({ storeName, pending }: { storeName: string; pending: boolean }) {
  const t = journey.welcome;
  return (
    <section aria-labelledby="welcome-heading" data-welcome className="border-b border-emerald-200 bg-emerald-50 dark:border-emerald-900 dark:bg-emerald-950/40">
      <div className="mx-auto flex max-w-7xl flex-col gap-4 px-4 py-6 sm:flex-row sm:items-center sm:justify-between sm:px-6">
        <div>
          <h2 id="welcome-heading" className="text-lg font-semibold text-emerald-900 dark:text-emerald-100">
            {storeName ? fill(t.heading, { store: storeName }) : t.headingNoStore}
          </h2>
          <p className="mt-1 text-emerald-800 dark:text-emerald-200">{pending ? t.pendingIntro : t.intro}</p>
        </div>
        <Link to={CHOOSE_PLAN_PATH} className={buttonStyles.primary}>
          {journey.home.choosePlan}
        </Link>
      </div>
    </section>
  );
}

