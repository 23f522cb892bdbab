import { useState, type FormEvent } from "react";
import { Link, useSearchParams } from "react-router";
import auth from "../../../../shared/content/auth.json";
import { api, API, messageFor } from "./api";
import { AuthCard, Field, focusField, FormAlert, SubmitButton, useHydrated } from "./form-parts";
import { emailError } from "./validation";

const t = auth.forgot;

/**
 * Ask for a reset link. The answer is the same whether or not the address has
 * an account. Without JavaScript the edge answers 303 ?sent=1 (or ?error=).
 */
export function ForgotPasswordForm() {
  const [params] = useSearchParams();
  const hydrated = useHydrated();
  const [email, setEmail] = useState("");
  const [touched, setTouched] = useState(false);
  const [sending, setSending] = useState(false);
  const [errorDetail, setErrorDetail] = useState<string | null>(() => messageFor(params.get("error")));
  const [sent, setSent] = useState<string | null>(() => (params.has("sent") ? auth.messages.resetSent : null));
  const error = emailError(email);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sending) return;
    setTouched(true);
    if (error) return focusField(event.currentTarget, "email");
    setSending(true);
    setErrorDetail(null);
    setSent(null);
    try {
      const { data } = await api<{ data: { message: string } }>(API.forgotPassword, { email });
      setSent(data.message);
    } catch (e) {
      setErrorDetail((e as Error).message);
    }
    setSending(false);
  }

  return (
    <AuthCard heading={t.heading} intro={t.intro}>
      <FormAlert message={errorDetail} />
      <FormAlert message={sent} tone="notice" />
      <form method="post" action={API.forgotPassword} noValidate={hydrated} onSubmit={onSubmit} aria-busy={sending} className="mt-4 space-y-5">
        <Field id="forgot-email" name="email" type="email" label={t.email} autoComplete="email" inputMode="email" required
          value={email} onChange={(e) => setEmail(e.target.value)} onBlur={() => setTouched(true)} error={touched ? error : undefined} />
        <SubmitButton busy={sending} label={t.submit} busyLabel={t.submitting} />
      </form>
      <p className="mt-6 text-center text-sm">
        <Link to="/login" className="font-semibold text-brand-600 hover:underline dark:text-brand-400">
          {t.back}
        </Link>
      </p>
    </AuthCard>
  );
}
