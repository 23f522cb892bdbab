import { ForgotPasswordForm } from "~/components/auth/forgot-form";
import { routeMeta } from "~/lib/meta";
import routeCopy from "virtual:route-copy";

export const handle = { routeCopy };
export const meta = routeMeta;

export default function ForgotPasswordPage() {
  return <ForgotPasswordForm />;
}
