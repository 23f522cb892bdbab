import { ForgotPasswordForm } from "~/components/auth/forgot-form";
import { routeMeta } from "~/lib/meta";

export const meta = routeMeta;

export default function ForgotPasswordPage() {
  return <ForgotPasswordForm />;
}
