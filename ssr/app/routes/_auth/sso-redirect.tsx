import { Link } from "react-router";
import { AuthCard } from "~/components/auth/form-parts";
import { routeMeta } from "~/lib/meta";
import auth from "../../../../shared/content/auth.json";

export const meta = routeMeta;

// The end of the no-JavaScript Google flow (/sso-redirect?code=…&state=…) is
// answered by the edge before this page renders (accounts.Pages): it signs
// the visitor in and redirects. This page only shows for a visit without
// those parameters.
export default function SsoRedirectPage() {
  const t = auth.ssoRedirect;
  return (
    <AuthCard heading={t.heading} intro={t.text}>
      <Link to="/login" className="font-semibold text-brand-600 hover:underline dark:text-brand-400">
        {t.back}
      </Link>
    </AuthCard>
  );
}
