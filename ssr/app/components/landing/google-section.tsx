import { GoogleSignIn } from "~/components/auth/google-signin";
import type { LandingContent } from "./types";

/**
 * Sign in or create a store with a Google account. The button is the
 * accounts work's component. The landing page loads this module (with the
 * button) only when a client id is configured (GOOGLE_CLIENT_ID), so the page
 * never offers a sign-in that cannot work, nor downloads one.
 */
export function GoogleSection({ google }: { google: LandingContent["google"] }) {
  return (
    <section aria-labelledby="google-title" className="mx-auto max-w-7xl px-4 sm:px-6">
      <div className="flex flex-col items-center gap-6 rounded-3xl bg-gray-50 px-6 py-10 text-center ring-1 ring-gray-200 sm:flex-row sm:justify-between sm:px-10 sm:text-left dark:bg-white/[0.03] dark:ring-white/10">
        <div>
          <h2 id="google-title" className="text-xl font-semibold text-gray-950 dark:text-white">
            {google.title}
          </h2>
          <p className="mt-2 text-gray-600 dark:text-gray-300">{google.text}</p>
        </div>
        <GoogleSignIn />
      </div>
    </section>
  );
}
