// The store-name step: an account made by Google sign-in has no
// store yet, since the provider knows no store name. Before any plan, the
// merchant names the store: a plain form posting to /choose-plan (the route
// table's store-name form), which the edge answers with a 303 back to the
// plans, or with this page again showing what was typed and why it was
// refused (lib/form-state.ts). It works the same with and without JavaScript.
import auth from "@omnibus/shared/content/auth.json";
import { buttonStyles } from "~/components/ui/site-link";
import { useRefusedForm, wordsFor } from "~/lib/form-state";
import { CHOOSE_PLAN_PATH, journey } from "~/lib/journey";

export function StoreNameStep() {
  const t = journey.welcome.nameStore;
  const refused = useRefusedForm("store-name");
  const error = wordsFor(auth.messages, refused?.errors.storeName ?? refused?.error);
  return (
    <form method="post" action={CHOOSE_PLAN_PATH} className="mt-10 max-w-xl" data-store-name-step>
      <label htmlFor="store-name" className="block text-sm font-semibold">
        {auth.register.storeName}
      </label>
      <input
        id="store-name"
        name="storeName"
        required
        autoComplete="organization"
        defaultValue={refused?.values.storeName}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? "store-name-error store-name-hint" : "store-name-hint"}
        className="mt-2 block w-full rounded-xl border-0 bg-white px-4 py-3 text-gray-900 ring-1 ring-gray-300 ring-inset focus:ring-2 focus:ring-brand-500 dark:bg-white/5 dark:text-white dark:ring-white/15"
      />
      <p id="store-name-hint" className="mt-2 text-sm text-gray-600 dark:text-gray-400">
        {auth.register.storeNameHint} <strong className="font-semibold">…{auth.register.storeDomain}</strong>
      </p>
      {error && (
        <p id="store-name-error" role="alert" className="mt-2 text-sm font-medium text-rose-700 dark:text-rose-300">
          {error}
        </p>
      )}
      <button type="submit" className={`mt-6 ${buttonStyles.primary}`}>
        {t.submit}
      </button>
    </form>
  );
}
