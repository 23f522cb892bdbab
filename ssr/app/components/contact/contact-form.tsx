import { useEffect, useRef, useState, type FormEvent } from "react";
import { Link } from "react-router";
import {
  CONTACT_ENDPOINT,
  fieldError,
  PHONE_PATTERN,
  type ContactFieldName,
  type ContactFieldRule,
  type ContactOutcome,
} from "~/lib/contact-form";
import { buttonStyles } from "~/components/ui/site-link";
import { ownChecks, useFormAction, useRefusedForm, wordsFor, type FormState } from "~/lib/form-state";

export interface ContactFormProps {
  /** The page id, sent as the form's topic. */
  topic: string;
  /** The fields this page shows, in order. */
  fields: ContactFieldName[];
  rules: Record<ContactFieldName, ContactFieldRule>;
  messageLabel: string;
  messagePlaceholder: string;
  submitLabel: string;
  sendingLabel: string;
  privacyNote: string;
  privacyLink: string;
  outcomes: Record<ContactOutcome, string>;
  genericError: string;
  /** From the edge's redirect after a post without JavaScript stored the message (?outcome=sent). */
  initialOutcome?: ContactOutcome | null;
}

type Status =
  | { kind: "idle" }
  | { kind: "sending" }
  | { kind: "sent"; message: string }
  | { kind: "error"; message: string };

type Errors = Partial<Record<ContactFieldName, string>>;

/**
 * The contact form. Without JavaScript it is an ordinary form posting to its
 * page (the browser checks required fields and lengths first): the edge
 * stores the message and redirects back with ?outcome=sent, or answers with
 * this page again showing what was typed and every field's error
 * (lib/form-state.ts). With JavaScript it checks each field as the visitor
 * leaves it, sends JSON with fetch, shows 'Sending…' meanwhile and then the
 * edge's answer, without leaving the page.
 */
export function ContactForm(props: ContactFormProps) {
  const { topic, fields, rules, outcomes } = props;
  const refused = useRefusedForm("contact");
  // No #contact-form: a document opened at a fragment skips autofocus, and the first invalid field is focused (and scrolled to).
  const action = useFormAction("contact", CONTACT_ENDPOINT);
  const statusRef = useRef<HTMLDivElement>(null);
  const [status, setStatus] = useState<Status>(() => initialStatus(props.initialOutcome, outcomes, refused));
  const [errors, setErrors] = useState<Errors>(() => refusedErrors(refused, fields, rules));
  // The first invalid field of a refused post takes the focus, as a refused submit with JavaScript does.
  const [focus] = useState(() => fields.find((name) => errors[name]));

  useEffect(() => {
    if (status.kind === "sent" || status.kind === "error") statusRef.current?.focus();
  }, [status]);

  function check(name: ContactFieldName, value: string) {
    const message = fieldError(name, rules[name], value);
    setErrors((current) => ({ ...current, [name]: message || undefined }));
    return message;
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (status.kind === "sending") return;
    const form = event.currentTarget;
    const values = Object.fromEntries(fields.map((name) => [name, String(new FormData(form).get(name) ?? "")]));
    const found: Errors = {};
    for (const name of fields) {
      const message = fieldError(name, rules[name], values[name]);
      if (message) found[name] = message;
    }
    setErrors(found);
    const firstInvalid = fields.find((name) => found[name]);
    if (firstInvalid) {
      (form.elements.namedItem(firstInvalid) as HTMLElement | null)?.focus();
      setStatus({ kind: "idle" });
      return;
    }

    setStatus({ kind: "sending" });
    try {
      const response = await fetch(CONTACT_ENDPOINT, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ topic, ...values }),
      });
      if (response.ok) {
        form.reset();
        setErrors({});
        setStatus({ kind: "sent", message: outcomes.sent });
        return;
      }
      const body = (await response.json().catch(() => ({}))) as { errorDetail?: unknown; field?: unknown };
      const message = typeof body.errorDetail === "string" && body.errorDetail ? body.errorDetail : errorFor(response.status, props);
      if (typeof body.field === "string" && (fields as string[]).includes(body.field)) {
        setErrors({ [body.field]: message });
        (form.elements.namedItem(body.field) as HTMLElement | null)?.focus();
        setStatus({ kind: "idle" });
      } else {
        setStatus({ kind: "error", message });
      }
    } catch {
      setStatus({ kind: "error", message: outcomes.unavailable });
    }
  }

  const sending = status.kind === "sending";
  return (
    <form
      ref={ownChecks}
      id="contact-form"
      method="post"
      action={action}
      onSubmit={onSubmit}
      aria-describedby="contact-privacy"
      className="scroll-mt-24 space-y-6 rounded-3xl bg-white p-6 shadow-xl ring-1 ring-gray-900/5 sm:p-8 dark:bg-gray-900 dark:ring-white/10"
    >
      <div ref={statusRef} tabIndex={-1} className="outline-none" aria-live="polite">
        {status.kind === "sent" && (
          <p role="status" className="rounded-xl bg-emerald-50 p-4 text-sm font-medium text-emerald-800 dark:bg-emerald-400/10 dark:text-emerald-300">
            {status.message}
          </p>
        )}
        {status.kind === "error" && (
          <p role="alert" className="rounded-xl bg-rose-50 p-4 text-sm font-medium text-rose-800 dark:bg-rose-400/10 dark:text-rose-300">
            {status.message}
          </p>
        )}
      </div>

      <input type="hidden" name="topic" value={topic} />
      {fields.map((name) => (
        <Field
          key={name}
          name={name}
          rule={rules[name]}
          label={name === "message" ? props.messageLabel : rules[name].label}
          placeholder={name === "message" ? props.messagePlaceholder : undefined}
          defaultValue={refused?.values[name]}
          autoFocus={name === focus}
          error={errors[name]}
          onBlur={(value) => check(name, value)}
          onChange={(value) => errors[name] && check(name, value)}
        />
      ))}

      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <button type="submit" disabled={sending} aria-busy={sending} className={`${buttonStyles.primary} shrink-0 whitespace-nowrap disabled:cursor-wait disabled:opacity-70`}>
          {sending ? props.sendingLabel : props.submitLabel}
        </button>
        <p id="contact-privacy" className="text-sm text-gray-500 dark:text-gray-400">
          {props.privacyNote}{" "}
          <Link to="/privacy-policy" className="font-medium text-brand-600 hover:underline dark:text-brand-400">
            {props.privacyLink}
          </Link>
        </p>
      </div>
    </form>
  );
}

function Field({
  name,
  rule,
  label,
  placeholder,
  defaultValue,
  autoFocus,
  error,
  onBlur,
  onChange,
}: {
  name: ContactFieldName;
  rule: ContactFieldRule;
  label: string;
  placeholder?: string;
  defaultValue?: string;
  autoFocus?: boolean;
  error?: string;
  onBlur: (value: string) => void;
  onChange: (value: string) => void;
}) {
  const id = `contact-${name}`;
  const errorId = `${id}-error`;
  const shared = {
    id,
    name,
    required: rule.required,
    maxLength: rule.maxLength,
    minLength: rule.minLength,
    autoComplete: rule.autoComplete,
    placeholder,
    defaultValue,
    autoFocus,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": error ? errorId : undefined,
    className: `block w-full rounded-xl border-0 bg-white px-4 py-3 text-gray-900 ring-1 ring-inset placeholder:text-gray-400 focus:ring-2 focus:ring-inset focus:ring-brand-500 dark:bg-white/5 dark:text-white ${
      error ? "ring-rose-500 dark:ring-rose-400" : "ring-gray-300 dark:ring-white/15"
    }`,
    onBlur: (event: { currentTarget: { value: string } }) => onBlur(event.currentTarget.value),
    onChange: (event: { currentTarget: { value: string } }) => onChange(event.currentTarget.value),
  };
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-semibold text-gray-900 dark:text-white">
        {label}
        {!rule.required && <span className="ml-1 font-normal text-gray-500 dark:text-gray-400">(optional)</span>}
      </label>
      <div className="mt-2">
        {rule.type === "textarea" ? (
          <textarea rows={6} {...shared} />
        ) : (
          <input type={rule.type} pattern={name === "phone" ? PHONE_PATTERN : undefined} inputMode={name === "phone" ? "tel" : undefined} {...shared} />
        )}
      </div>
      {error && (
        <p id={errorId} className="mt-2 text-sm text-rose-700 dark:text-rose-400">
          {error}
        </p>
      )}
    </div>
  );
}

function initialStatus(outcome: ContactOutcome | null | undefined, outcomes: Record<ContactOutcome, string>, refused: FormState | null): Status {
  if (refused) {
    const message = wordsFor(outcomes, refused.error);
    return message ? { kind: "error", message } : { kind: "idle" };
  }
  if (!outcome) return { kind: "idle" };
  return outcome === "sent" ? { kind: "sent", message: outcomes.sent } : { kind: "error", message: outcomes[outcome] };
}

/** Each invalid field of a refused post, with its rule's message (the edge's code only says it is invalid). */
function refusedErrors(refused: FormState | null, fields: ContactFieldName[], rules: Record<ContactFieldName, ContactFieldRule>): Errors {
  return Object.fromEntries(fields.filter((name) => refused?.errors[name]).map((name) => [name, rules[name].error]));
}

function errorFor(status: number, props: ContactFormProps): string {
  if (status === 413) return props.outcomes["too-large"];
  if (status === 429) return props.outcomes["rate-limited"];
  if (status >= 500) return props.outcomes.unavailable;
  return props.genericError;
}
