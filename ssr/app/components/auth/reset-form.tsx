import { Link, useSearchParams } from "react-router";
import auth from "@omnibus/shared/content/auth.json";
import { api, API, goOn, type SignInStatus } from "./api";
import { AuthCard, Field, FormAlert, SubmitButton } from "./form-parts";
import { ownChecks, useFormAction } from "~/lib/form-state";
import { useAuthForm } from "./use-auth-form";
import { MAX_PASSWORD, MIN_PASSWORD, newPasswordError } from "./validation";

const t = auth.reset;

/**
 * Set a new password with the token from the e-mailed link. The edge signs
 * out every other session and signs this browser in, then the redirect rules
 * apply. Without JavaScript the token travels in a hidden field.
 */
export function ResetPasswordForm() {
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const form = useAuthForm("reset-password", { password: "" });
  // Posted to this page, the token stays in its address for the page shown again after a refusal.
  const action = useFormAction("reset-password", API.resetPassword, `?${new URLSearchParams({ token })}`);
  const errors = { password: newPasswordError(form.values.password) };
  const linkDead = !token || form.errorDetail === auth.messages.resetInvalid;
  const onSubmit = form.submitWith(errors, async ({ password }) => {
    const { data } = await api<{ data: SignInStatus }>(API.resetPassword, { token, password });
    goOn(data);
  });

  return (
    <AuthCard heading={t.heading} intro={t.intro}>
      <FormAlert message={token ? form.errorDetail : t.missingToken} />
      {token && (
        <form method="post" action={action} ref={ownChecks} onSubmit={onSubmit} aria-busy={form.busy} className="mt-4 space-y-5">
          <input type="hidden" name="token" value={token} />
          <Field id="reset-password" type="password" label={t.password} autoComplete="new-password" required minLength={MIN_PASSWORD} maxLength={MAX_PASSWORD}
            {...form.bind("password")} error={form.shown(errors, "password")}
            hint={auth.register.passwordHint} />
          <SubmitButton busy={form.busy} label={t.submit} busyLabel={t.submitting} />
        </form>
      )}
      {linkDead && (
        <p className="mt-6 text-center text-sm">
          <Link to="/forgot-password" className="font-semibold text-brand-600 hover:underline dark:text-brand-400">
            {t.requestNew}
          </Link>
        </p>
      )}
    </AuthCard>
  );
}
