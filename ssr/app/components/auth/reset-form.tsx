import { useState, type FormEvent } from "react";
import { Link, useSearchParams } from "react-router";
import auth from "../../../../shared/content/auth.json";
import { api, API, goOn, messageFor, type SignInStatus } from "./api";
import { AuthCard, Field, focusField, FormAlert, SubmitButton, useHydrated } from "./form-parts";
import { newPasswordError } from "./validation";

const t = auth.reset;

/**
 * Set a new password with the token from the e-mailed link. The edge signs
 * out every other session and signs this browser in, then the redirect rules
 * apply. Without JavaScript the token travels in a hidden field.
 */
export function ResetPasswordForm() {
  const [params] = useSearchParams();
  const hydrated = useHydrated();
  const token = params.get("token") ?? "";
  const [password, setPassword] = useState("");
  const [touched, setTouched] = useState(false);
  const [saving, setSaving] = useState(false);
  const [errorDetail, setErrorDetail] = useState<string | null>(() => messageFor(params.get("error")));
  const error = newPasswordError(password);
  const linkDead = !token || errorDetail === auth.messages.resetInvalid;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (saving) return;
    setTouched(true);
    if (error) return focusField(event.currentTarget, "password");
    setSaving(true);
    setErrorDetail(null);
    try {
      const { data } = await api<{ data: SignInStatus }>(API.resetPassword, { token, password });
      goOn(data);
    } catch (e) {
      setErrorDetail((e as Error).message);
      setSaving(false);
    }
  }

  return (
    <AuthCard heading={t.heading} intro={t.intro}>
      <FormAlert message={token ? errorDetail : t.missingToken} />
      {token && (
        <form method="post" action={API.resetPassword} noValidate={hydrated} onSubmit={onSubmit} aria-busy={saving} className="mt-4 space-y-5">
          <input type="hidden" name="token" value={token} />
          <Field id="reset-password" name="password" type="password" label={t.password} autoComplete="new-password" required minLength={8} maxLength={128}
            value={password} onChange={(e) => setPassword(e.target.value)} onBlur={() => setTouched(true)} error={touched ? error : undefined}
            hint={auth.register.passwordHint} />
          <SubmitButton busy={saving} label={t.submit} busyLabel={t.submitting} />
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
