import { cardLinks } from "~/components/auth/form-parts";
import { ResetPasswordForm } from "~/components/auth/reset-form";
import { routeMeta } from "~/lib/meta";
import routeCopy from "virtual:route-copy";

export const handle = { routeCopy };
export const meta = routeMeta;
export const links = cardLinks;

// An (empty) server loader: React Router asks the edge for this page's data
// (/reset-password.data) only for a route that has one, and that request is how the
// edge counts a client-side navigation here as a page view (docs/analytics.md; app/page-views.test.ts fails without it).
export const loader = () => null;

export default function ResetPasswordPage() {
  return <ResetPasswordForm />;
}
