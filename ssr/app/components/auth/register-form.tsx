import { useEffect, useState } from "react";
import auth from "@omnibus/shared/content/auth.json";
import { API } from "./api";
import { CredentialsCard, signInWith } from "./credentials-card";
import { Field } from "./form-parts";
import { useAuthForm } from "./use-auth-form";
import { limits } from "../../lib/validation";
import { MAX_PASSWORD, MIN_PASSWORD, slugify, storeNameError, validateRegister } from "./validation";

const t = auth.register;

const STORE_NAME_ID = "register-store";

/** How long typing must pause before the store name is checked. */
export const AVAILABILITY_DEBOUNCE_MS = 400;

type Availability =
  | { state: "idle" }
  | { state: "checking"; name: string }
  | { state: "done"; name: string; available: boolean; message: string };

/**
 * Create an account and its store. Same two modes as the login form; the
 * store name is checked with the edge as the visitor types (debounced).
 */
export function RegisterForm() {
  const form = useAuthForm("register", { name: "", email: "", password: "", storeName: "" });
  const availability = useAvailability(form.values.storeName);
  const errors = validateRegister(form.values);
  const taken = availability.state === "done" && !availability.available;
  if (!errors.storeName && taken) errors.storeName = availability.message;
  // The check's refusal is the edge's answer: shown as soon as it comes, not
  // on leaving the field (its appearing then moved the submit button from
  // under a click, and the click submitted nothing).
  const storeNameError = form.shown(errors, "storeName") ?? (taken ? errors.storeName : undefined);
  useTakeBackToRefusedStoreName(taken);
  const onSubmit = form.submitWith(errors, (values) => signInWith(API.register, values));
  const slug = slugify(form.values.storeName);

  return (
    <CredentialsCard form="register" endpoint={API.register} words={t} busy={form.busy} errorDetail={form.errorDetail}
      onSubmit={onSubmit} other={{ text: t.haveAccount, link: t.loginLink, to: "/login" }}>
      <Field id="register-name" label={t.name} autoComplete="name" required maxLength={limits("name").maxLength}
        {...form.bind("name")} error={form.shown(errors, "name")} />
      <Field id="register-email" type="email" label={t.email} autoComplete="email" inputMode="email" required
        {...form.bind("email")} error={form.shown(errors, "email")} />
      <Field id="register-password" type="password" label={t.password} autoComplete="new-password" required minLength={MIN_PASSWORD} maxLength={MAX_PASSWORD}
        {...form.bind("password")} error={form.shown(errors, "password")} hint={t.passwordHint} />
      <Field id={STORE_NAME_ID} label={t.storeName} autoComplete="off" required
        {...form.bind("storeName")} error={storeNameError}
        hint={
          <span aria-live="polite" data-availability={availability.state === "done" ? (availability.available ? "available" : "taken") : availability.state}>
            {t.storeNameHint} <strong className="font-semibold text-gray-900 dark:text-white">{slug || "…"}{t.storeDomain}</strong>
            {availability.state === "checking" && <> · {t.checking}</>}
            {availability.state === "done" && availability.available && (
              <span className="text-emerald-700 dark:text-emerald-300"> · {availability.message}</span>
            )}
          </span>
        } />
    </CredentialsCard>
  );
}

/**
 * When the check refuses the store name after the visitor has moved on to
 * the submit button (tabbed there, or pressing it as the answer came), the
 * focus goes back to the store name, which by then is aria-invalid and
 * described by the refusal, so it is read out: as a refused submit does.
 * Focus anywhere else (another field) is the visitor's and stays.
 */
function useTakeBackToRefusedStoreName(taken: boolean) {
  useEffect(() => {
    if (!taken) return;
    const field = document.getElementById(STORE_NAME_ID);
    const active = document.activeElement;
    if (field instanceof HTMLInputElement && active instanceof HTMLButtonElement && active.type === "submit" && active.form === field.form) field.focus();
  }, [taken]);
}

/** Asks the edge whether the store name is free, once typing pauses. */
function useAvailability(storeName: string): Availability {
  const [result, setResult] = useState<Availability>({ state: "idle" });
  const slug = slugify(storeName);
  const checkable = !storeNameError(storeName);
  useEffect(() => {
    if (!checkable) {
      setResult({ state: "idle" });
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      setResult({ state: "checking", name: slug });
      try {
        const res = await fetch(`${API.availability}?name=${encodeURIComponent(slug)}`, { credentials: "include", signal: controller.signal });
        const json = (await res.json()) as { data?: { name: string; available: boolean; message: string } };
        if (!res.ok || !json.data) throw new Error(`availability: ${res.status}`);
        setResult({ state: "done", name: json.data.name, available: json.data.available, message: json.data.message });
      } catch (error) {
        if (controller.signal.aborted) return;
        console.error("Could not check the store name", error);
        setResult({ state: "idle" }); // the server checks again on submit
      }
    }, AVAILABILITY_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [slug, checkable]);
  return result.state !== "idle" && result.name !== slug ? { state: "idle" } : result;
}
