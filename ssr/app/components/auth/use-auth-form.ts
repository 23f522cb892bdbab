// The state every sign-in form has: its values, which fields were visited,
// the busy flag (SPEC §4's signingIn) and the server's errorDetail. A post
// without JavaScript that the edge refused comes back as the page with the
// form's state (lib/form-state.ts): the values (the password only where the
// edge sends it back: registration), every field's error and the form's own; the Google and confirmation flows bring
// their error back as /login?error=<code>.
import { useEffect, useState, type ChangeEvent, type FormEvent } from "react";
import { takeTypedFields } from "~/lib/typed-before-hydration";
import { useSearchParams } from "react-router";
import { useRefusedForm, type FormId } from "~/lib/form-state";
import { ApiError, messageFor } from "./api";
import { focusField } from "./form-parts";
import { firstError, type Errors } from "./validation";

type SubmitOptions = {
  /** The request ends in a full page load (sign-in): stay busy until it happens. */
  leavesPage?: boolean;
};

export function useAuthForm<K extends string>(form: FormId, initial: Record<K, string>) {
  const [params] = useSearchParams();
  const refused = useRefusedForm(form);
  const names = Object.keys(initial) as K[];
  // Typed values come back; a password only where the edge sent it (a
  // registration's, exactly as typed: decision 0061).
  const [values, setValues] = useState(() => ({
    ...initial,
    ...Object.fromEntries(names.filter((k) => refused?.values[k]).map((k) => [k, refused!.values[k]])),
  }));
  const [touched, setTouched] = useState<Partial<Record<K, boolean>>>({});
  const [busy, setBusy] = useState(false);
  const [errorDetail, setErrorDetail] = useState<string | null>(() => messageFor(refused ? refused.error : params.get("error")));
  // The edge's error of each field of a refused post, shown until the visitor changes the field.
  const [refusedErrors, setRefusedErrors] = useState<Errors<K>>(() =>
    Object.fromEntries(names.map((k) => [k, messageFor(refused?.errors[k] ?? null) ?? undefined])) as Errors<K>,
  );
  // Its first invalid field takes the focus, as a refused submit with JavaScript does.
  const [focus] = useState(() => firstError(refusedErrors));
  // What was typed before the page hydrated stays (lib/typed-before-hydration.ts).
  useEffect(() => {
    const restored = takeTypedFields(names);
    if (Object.keys(restored).length > 0) setValues((v) => ({ ...v, ...restored }));
    // Once, after the first render: later typing is the state's.
  }, []);

  return {
    values,
    busy,
    errorDetail,
    /** name, value, onChange and onBlur of one input. */
    bind: (k: K) => ({
      name: k,
      value: values[k],
      autoFocus: k === focus,
      onChange: (e: ChangeEvent<HTMLInputElement>) => {
        setValues((v) => ({ ...v, [k]: e.target.value }));
        setRefusedErrors((r) => ({ ...r, [k]: undefined }));
      },
      onBlur: () => setTouched((t) => ({ ...t, [k]: true })),
    }),
    /** A field's error: the edge's for a refused post, else once the visitor has left the field or tried to submit. */
    shown: (errors: Errors<K>, k: K) => refusedErrors[k] ?? (touched[k] ? errors[k] : undefined),
    /**
     * The form's onSubmit: shows every error and focuses the first one, else
     * sends. A refused request ends busy and shows the server's words: each
     * refused field's next to it (the first takes the focus), else its
     * errorDetail. What was typed stays, the password too.
     */
    submitWith(errors: Errors<K>, send: (values: Record<K, string>) => Promise<void>, { leavesPage = true }: SubmitOptions = {}) {
      return async (event: FormEvent<HTMLFormElement>) => {
        event.preventDefault();
        const form = event.currentTarget;
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
          const refused = error instanceof ApiError ? names.filter((k) => error.fieldErrors[k]) : [];
          if (refused.length > 0) {
            setRefusedErrors(Object.fromEntries(refused.map((k) => [k, (error as ApiError).fieldErrors[k]])) as Errors<K>);
            focusField(form, refused[0]);
          } else {
            setErrorDetail((error as Error).message);
          }
          setBusy(false);
        }
      };
    },
  };
}
