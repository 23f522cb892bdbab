import { ResetPasswordForm } from "~/components/auth/reset-form";
import { routeMeta } from "~/lib/meta";
import routeCopy from "virtual:route-copy";

export const handle = { routeCopy };
export const meta = routeMeta;

export default function ResetPasswordPage() {
  return <ResetPasswordForm />;
}
