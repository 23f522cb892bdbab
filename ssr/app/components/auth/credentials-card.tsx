import type { FormEvent, ReactNode } from "react";
import { Link } from "react-router";
import { api, goOn, type SignInStatus } from "./api";
import { AuthCard, FormAlert, SubmitButton } from "./form-parts";
import { GoogleSignIn, useGoogleClientId } from "./google-button";
import { ownChecks, useFormAction, type FormId } from "~/lib/form-state";

type Words = { heading: string; intro?: string; submit: string; submitting: string; or: string };

/**
 * What signing in and registering share, written once: the card, the
 * server's refusal (and a notice, where the page has one), the form that posts
 * form-encoded to its own page without JavaScript and is validated inline
 * with it (ownChecks, lib/form-state.ts), its submit button, the Google option
 * and the link to the other page. The fields are the page's own.
 */
export function CredentialsCard(props: {
  form: FormId;
  /** The endpoint a post with JavaScript goes to (and, without, the page's own edge action). */
  endpoint: string;
  words: Words;
  busy: boolean;
  errorDetail: string | null;
  notice?: string | null;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  googleVariant?: "code" | "credential";
  other: { text: string; link: string; to: string };
  children: ReactNode;
}) {
  const { words: t, other } = props;
  const action = useFormAction(props.form, props.endpoint);
  return (
    <AuthCard heading={t.heading} intro={t.intro}>
      {props.notice === undefined ? (
        <FormAlert message={props.errorDetail} />
      ) : (
        <div className="space-y-4">
          <FormAlert message={props.errorDetail} />
          {!props.errorDetail && <FormAlert message={props.notice} tone="notice" />}
        </div>
      )}
      <form method="post" action={action} ref={ownChecks} onSubmit={props.onSubmit} aria-busy={props.busy} className="mt-4 space-y-5">
        {props.children}
        <SubmitButton busy={props.busy} label={t.submit} busyLabel={t.submitting} />
      </form>
      <GoogleOption label={t.or} variant={props.googleVariant} />
      <p className="mt-6 text-center text-sm text-gray-600 dark:text-gray-400">
        {other.text}{" "}
        <Link to={other.to} className="font-semibold text-brand-600 hover:underline dark:text-brand-400">
          {other.link}
        </Link>
      </p>
    </AuthCard>
  );
}

/** Posts the credentials as JSON and goes where the edge's sign-in status says. */
export async function signInWith(url: string, values: Record<string, string>) {
  const { data } = await api<{ data: SignInStatus }>(url, values);
  goOn(data);
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
