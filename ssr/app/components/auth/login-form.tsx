import { Link, useSearchParams } from "react-router";
import auth from "@omnibus/shared/content/auth.json";
import { API } from "./api";
import { CredentialsCard, signInWith } from "./credentials-card";
import { Field } from "./form-parts";
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
  const form = useAuthForm("login", { email: "", password: "" });
  const notice = params.has("signedOut") ? auth.messages.signedOut : params.has("verified") ? auth.messages.verified : null;
  const errors = validateLogin(form.values);
  const onSubmit = form.submitWith(errors, (values) => signInWith(API.login, values));

  return (
    <CredentialsCard form="login" endpoint={API.login} words={t} busy={form.busy} errorDetail={form.errorDetail} notice={notice}
      onSubmit={onSubmit} googleVariant="credential" other={{ text: t.noAccount, link: t.registerLink, to: "/register" }}>
      <Field id="login-email" type="email" label={t.email} autoComplete="email" inputMode="email" required
        {...form.bind("email")} error={form.shown(errors, "email")} />
      <Field id="login-password" type="password" label={t.password} autoComplete="current-password" required
        {...form.bind("password")} error={form.shown(errors, "password")}
        hint={<Link to="/forgot-password" className="font-semibold text-brand-600 hover:underline dark:text-brand-400">{t.forgot}</Link>} />
    </CredentialsCard>
  );
}
