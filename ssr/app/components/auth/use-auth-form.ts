// The state every sign-in form has: its values, which fields were visited,
// the busy flag (SPEC §4's signingIn) and the server's errorDetail, which a
// no-JavaScript post brings back as ?error=<code>.
import { useState, type ChangeEvent, type FormEvent } from "react";
import { useSearchParams } from "react-router";
import { messageFor } from "./api";
import { focusField } from "./form-parts";
import { firstError, type Errors } from "./validation";

type SubmitOptions = {
  /** The request ends in a full page load (sign-in): stay busy until it happens. */
  leavesPage?: boolean;
};

export function useAuthForm<K extends string>(initial: Record<K, string>) {
  const [params] = useSearchParams();
  const [values, setValues] = useState(initial);
  const [touched, setTouched] = useState<Partial<Record<K, boolean>>>({});
  const [busy, setBusy] = useState(false);
  const [errorDetail, setErrorDetail] = useState<string | null>(() => messageFor(params.get("error")));

  return {
    values,
    busy,
    errorDetail,
    /** name, value, onChange and onBlur of one input. */
    bind: (k: K) => ({
      name: k,
      value: values[k],
      onChange: (e: ChangeEvent<HTMLInputElement>) => setValues((v) => ({ ...v, [k]: e.target.value })),
      onBlur: () => setTouched((t) => ({ ...t, [k]: true })),
    }),
    /** A field's error, once the visitor has left the field or tried to submit. */
    shown: (errors: Errors<K>, k: K) => (touched[k] ? errors[k] : undefined),
    /**
     * The form's onSubmit: shows every error and focuses the first one, else
     * sends. A refused request shows the server's errorDetail and ends busy.
     */
    submitWith(errors: Errors<K>, send: (values: Record<K, string>) => Promise<void>, { leavesPage = true }: SubmitOptions = {}) {
      return async (event: FormEvent<HTMLFormElement>) => {
        event.preventDefault();
        if (busy) return;
        setTouched(Object.fromEntries(Object.keys(values).map((k) => [k, true])) as Record<K, boolean>);
        const invalid = firstError(errors);
        if (invalid) return focusField(event.currentTarget, invalid);
        setBusy(true);
        setErrorDetail(null);
        try {
          await send(values);
          if (!leavesPage) setBusy(false);
        } catch (error) {
          setErrorDetail((error as Error).message);
          setBusy(false);
        }
      };
    },
  };
}
