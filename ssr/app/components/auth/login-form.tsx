import { Link, useSearchParams } from "react-router";
import auth from "../../../../shared/content/auth.json";
import { api, API, goOn, type SignInStatus } from "./api";
import { AuthCard, Field, FormAlert, SubmitButton, useHydrated } from "./form-parts";
import { GoogleSignIn, useGoogleClientId } from "./google-button";
import { useFormAction } from "~/lib/form-state";
import { useAuthForm } from "./use-auth-form";
import { validateLogin } from "./validation";

const t = auth.login;

/**
 * Sign in with e-mail and password. Without JavaScript the form posts
 * form-encoded to this page, which the edge answers with a 303 on, by the
 * redirect rules, or with this page again showing the e-mail and why
 * (lib/form-state.ts). With JavaScript it validates inline, posts JSON with
 * credentials and shows the server's errorDetail; signingIn resets on failure.
 */
export function LoginForm() {
  const [params] = useSearchParams();
  const hydrated = useHydrated();
  const action = useFormAction("login", API.login);
  const form = useAuthForm("login", { email: "", password: "" });
  const notice = params.has("signedOut") ? auth.messages.signedOut : params.has("verified") ? auth.messages.verified : null;
  const errors = validateLogin(form.values);
  const onSubmit = form.submitWith(errors, async (values) => {
    const { data } = await api<{ data: SignInStatus }>(API.login, values);
    goOn(data);
  });

  return (
    <AuthCard heading={t.heading} intro={t.intro}>
      <div className="space-y-4">
        <FormAlert message={form.errorDetail} />
        {!form.errorDetail && <FormAlert message={notice} tone="notice" />}
      </div>
      <form method="post" action={action} noValidate={hydrated} onSubmit={onSubmit} aria-busy={form.busy} className="mt-4 space-y-5">
        <Field id="login-email" type="email" label={t.email} autoComplete="email" inputMode="email" required
          {...form.bind("email")} error={form.shown(errors, "email")} />
        <Field id="login-password" type="password" label={t.password} autoComplete="current-password" required
          {...form.bind("password")} error={form.shown(errors, "password")}
          hint={<Link to="/forgot-password" className="font-semibold text-brand-600 hover:underline dark:text-brand-400">{t.forgot}</Link>} />
        <SubmitButton busy={form.busy} label={t.submit} busyLabel={t.submitting} />
      </form>
      <GoogleOption label={t.or} variant="credential" />
      <p className="mt-6 text-center text-sm text-gray-600 dark:text-gray-400">
        {t.noAccount}{" "}
        <Link to="/register" className="font-semibold text-brand-600 hover:underline dark:text-brand-400">
          {t.registerLink}
        </Link>
      </p>
    </AuthCard>
  );
}

/**
 * "or" and the Google button, when Google sign-in is configured. The button's
 * box keeps its height (min-h-10, the link's and Google's own button's) while
 * its code or Google's script loads: a card drawn without it (a streamed page,
 * the credential button waiting for Google) would grow when it came.
 */
export function GoogleOption({ label, variant }: { label: string; variant?: "code" | "credential" }) {
  if (!useGoogleClientId()) return null;
  return (
    <>
      <div className="my-6 flex items-center gap-3 text-xs font-medium tracking-wide text-gray-500 uppercase dark:text-gray-400" data-google-divider>
        <span className="h-px flex-1 bg-gray-200 dark:bg-white/10" />
        {label}
        <span className="h-px flex-1 bg-gray-200 dark:bg-white/10" />
      </div>
      <div className="min-h-10">
        <GoogleSignIn variant={variant} className="" />
      </div>
    </>
  );
}
