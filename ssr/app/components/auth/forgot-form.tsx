import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import auth from "@omnibus/shared/content/auth.json";
import { api, API } from "./api";
import { AuthCard, Field, FormAlert, SubmitButton } from "./form-parts";
import { ownChecks, useFormAction } from "~/lib/form-state";
import { useAuthForm } from "./use-auth-form";
import { emailError } from "./validation";

const t = auth.forgot;

/**
 * Ask for a reset link. The answer is the same whether or not the address has
 * an account. Without JavaScript the edge answers 303 ?sent=1, or this page
 * again with the address and why it was refused.
 */
export function ForgotPasswordForm() {
  const [params] = useSearchParams();
  const action = useFormAction("forgot-password", API.forgotPassword);
  const form = useAuthForm("forgot-password", { email: "" });
  const [sent, setSent] = useState<string | null>(() => (params.has("sent") ? auth.messages.resetSent : null));
  const errors = { email: emailError(form.values.email) };
  const onSubmit = form.submitWith(
    errors,
    async ({ email }) => {
      setSent(null);
      const { data } = await api<{ data: { message: string } }>(API.forgotPassword, { email });
      setSent(data.message);
    },
    { leavesPage: false },
  );

  return (
    <AuthCard heading={t.heading} intro={t.intro}>
      <FormAlert message={form.errorDetail} />
      <FormAlert message={sent} tone="notice" />
      <form method="post" action={action} ref={ownChecks} onSubmit={onSubmit} aria-busy={form.busy} className="mt-4 space-y-5">
        <Field id="forgot-email" type="email" label={t.email} autoComplete="email" inputMode="email" required
          {...form.bind("email")} error={form.shown(errors, "email")} />
        <SubmitButton busy={form.busy} label={t.submit} busyLabel={t.submitting} />
      </form>
      <p className="mt-6 text-center text-sm">
        <Link to="/login" className="font-semibold text-brand-600 hover:underline dark:text-brand-400">
          {t.back}
        </Link>
      </p>
    </AuthCard>
  );
}
