import { Link, useLoaderData } from "react-router";
import { AuthCard, cardLinks } from "~/components/auth/form-parts";
import { GoogleSignIn } from "~/components/auth/google-button";
import { routeMeta } from "~/lib/meta";
import auth from "@omnibus/shared/content/auth.json";
import type { Route } from "./+types/sso-redirect";
import routeCopy from "virtual:route-copy";

export const handle = { routeCopy };
export const meta = routeMeta;
export const links = cardLinks;

type Reason = keyof typeof auth.ssoRedirect.reasons;

// The end of the no-JavaScript Google flow (/sso-redirect?code=…&state=…) is
// answered by the edge before this page renders (accounts.Pages): it signs
// the visitor in and redirects, or comes back here with ?failed=denied (the
// provider refused) or ?failed=expired (no flow in progress in this
// browser). Opened directly, the page says no sign-in is in progress. Every
// case offers sign-in again at once.
export function loader({ request }: Route.LoaderArgs) {
  const failed = new URL(request.url).searchParams.get("failed");
  const reason: Reason = failed === "denied" || failed === "expired" ? failed : "none";
  return { reason };
}

export default function SsoRedirectPage() {
  const { reason } = useLoaderData<typeof loader>();
  const t = auth.ssoRedirect;
  const words = t.reasons[reason];
  return (
    <AuthCard heading={words.heading} intro={words.text}>
      <div className="mt-6 flex flex-col items-center gap-4" data-sso-reason={reason}>
        <Link to="/login" className="font-semibold text-brand-600 hover:underline dark:text-brand-400">
          {t.again}
        </Link>
        <GoogleSignIn className="items-center" />
      </div>
    </AuthCard>
  );
}
