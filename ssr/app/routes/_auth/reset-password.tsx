import { ResetPasswordForm } from "~/components/auth/reset-form";
import { routeMeta } from "~/lib/meta";

export const meta = routeMeta;

export default function ResetPasswordPage() {
  return <ResetPasswordForm />;
}
