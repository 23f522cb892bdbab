// What a visitor typed (or the browser autofilled) into a form before the
// page hydrated. React then puts each controlled field back to its state,
// which wiped a name typed in the first ~100 ms of /register; the form then
// said "Please enter your name". entry.client.tsx captures the
// fields whose value differs from the server's before hydrating; a form
// takes its fields' values once it has mounted (useAuthForm).
const typed = new Map<string, string>();

/** Records every named field whose value is not the one the server rendered. */
export function captureTyped(root: ParentNode = document) {
  for (const el of root.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>("form input[name], form textarea[name]")) {
    if (el.type === "hidden" || el.type === "checkbox" || el.type === "radio" || el.type === "file") continue;
    if (el.value !== el.defaultValue) typed.set(el.name, el.value);
  }
}

/** The value typed into the field called name before hydration, once (undefined when none). */
export function takeTyped(name: string): string | undefined {
  const value = typed.get(name);
  typed.delete(name);
  return value;
}

/** What was typed before hydration into each field of names that has any, once each. */
export function takeTypedFields<K extends string>(names: readonly K[]): Partial<Record<K, string>> {
  return Object.fromEntries(names.map((k) => [k, takeTyped(k)]).filter(([, v]) => v !== undefined)) as Partial<Record<K, string>>;
}
