import { useState, type FormEvent } from "react";
import { Link, useSearchParams } from "react-router";
import auth from "../../../../shared/content/auth.json";
import { api, API, goOn, messageFor, type SignInStatus } from "./api";
import { AuthCard, Field, focusField, FormAlert, SubmitButton, useHydrated } from "./form-parts";
import { GoogleSignIn, useGoogleClientId } from "./google-signin";
import { firstError, validateLogin } from "./validation";

const t = auth.login;

/**
 * Sign in with e-mail and password. Without JavaScript the form posts
 * form-encoded to the edge, which answers 303: on, by the redirect rules, or
 * back here with ?error=<code>. With JavaScript it validates inline, posts
 * JSON with credentials and shows the server's errorDetail; signingIn resets
 * on failure.
 */
export function LoginForm() {
  const [params] = useSearchParams();
  const hydrated = useHydrated();
  const googleClientId = useGoogleClientId();
  const [values, setValues] = useState({ email: "", password: "" });
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [signingIn, setSigningIn] = useState(false);
  const [errorDetail, setErrorDetail] = useState<string | null>(() => messageFor(params.get("error")));
  const notice = params.has("signedOut") ? auth.messages.signedOut : null;
  const errors = validateLogin(values);
  const shown = (k: keyof typeof errors) => (touched[k] ? errors[k] : undefined);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (signingIn) return;
    setTouched({ email: true, password: true });
    const invalid = firstError(errors);
    if (invalid) return focusField(event.currentTarget, invalid);
    setSigningIn(true);
    setErrorDetail(null);
    try {
      const { data } = await api<{ data: SignInStatus }>(API.login, values);
      goOn(data);
    } catch (error) {
      setErrorDetail((error as Error).message);
      setSigningIn(false);
    }
  }

  const set = (k: keyof typeof values) => (e: React.ChangeEvent<HTMLInputElement>) => setValues((v) => ({ ...v, [k]: e.target.value }));
  const touch = (k: string) => () => setTouched((s) => ({ ...s, [k]: true }));

  return (
    <AuthCard heading={t.heading} intro={t.intro}>
      <div className="space-y-4">
        <FormAlert message={errorDetail} />
        {!errorDetail && <FormAlert message={notice} tone="notice" />}
      </div>
      <form method="post" action={API.login} noValidate={hydrated} onSubmit={onSubmit} aria-busy={signingIn} className="mt-4 space-y-5">
        <Field id="login-email" name="email" type="email" label={t.email} autoComplete="email" inputMode="email" required
          value={values.email} onChange={set("email")} onBlur={touch("email")} error={shown("email")} />
        <Field id="login-password" name="password" type="password" label={t.password} autoComplete="current-password" required
          value={values.password} onChange={set("password")} onBlur={touch("password")} error={shown("password")}
          hint={<Link to="/forgot-password" className="font-semibold text-brand-600 hover:underline dark:text-brand-400">{t.forgot}</Link>} />
        <SubmitButton busy={signingIn} label={t.submit} busyLabel={t.submitting} />
      </form>
      {googleClientId && <GoogleDivider label={t.or} />}
      <GoogleSignIn variant="credential" className="" />
      <p className="mt-6 text-center text-sm text-gray-600 dark:text-gray-400">
        {t.noAccount}{" "}
        <Link to="/register" className="font-semibold text-brand-600 hover:underline dark:text-brand-400">
          {t.registerLink}
        </Link>
      </p>
    </AuthCard>
  );
}

export function GoogleDivider({ label }: { label: string }) {
  return (
    <div className="my-6 flex items-center gap-3 text-xs font-medium tracking-wide text-gray-500 uppercase dark:text-gray-400" data-google-divider>
      <span className="h-px flex-1 bg-gray-200 dark:bg-white/10" />
      {label}
      <span className="h-px flex-1 bg-gray-200 dark:bg-white/10" />
    </div>
  );
}
