// Inline validation of the sign-in forms: the same rules and words as the
// edge (internal/accounts), so most mistakes are caught before a round trip.
// The edge stays the authority (common passwords, reserved and taken names).
import auth from "../../../../shared/content/auth.json";

const m = auth.messages;
export const MIN_PASSWORD = 8;
export const MAX_PASSWORD = 128;

export type Errors<K extends string> = Partial<Record<K, string>>;

export function emailError(email: string): string | undefined {
  const e = email.trim();
  if (e === "") return m.emailRequired;
  if (e.length > 254 || !/^[^\s@<>()]+@[^\s@<>()]+\.[^\s@<>().]+$/.test(e)) return m.emailInvalid;
}

export function newPasswordError(password: string): string | undefined {
  if (password.trim() === "") return m.passwordRequired;
  const n = [...password].length;
  if (n < MIN_PASSWORD) return m.passwordTooShort;
  if (n > MAX_PASSWORD) return m.passwordTooLong;
}

/** A wanted store name as the subdomain it would get (edge: accounts.Slug). */
export function slugify(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

export function storeNameError(name: string): string | undefined {
  if (name.trim() === "") return m.storeNameRequired;
  const slug = slugify(name);
  if (slug.length < 3) return m.storeNameTooShort;
  if (slug.length > 63) return m.storeNameTooLong;
}

export function validateLogin(v: { email: string; password: string }): Errors<"email" | "password"> {
  return { email: emailError(v.email), password: v.password === "" ? m.passwordRequired : undefined };
}

export function validateRegister(v: { name: string; email: string; password: string; storeName: string }): Errors<"name" | "email" | "password" | "storeName"> {
  const name = v.name.trim();
  return {
    name: name === "" ? m.nameRequired : [...name].length > 100 ? m.nameTooLong : undefined,
    email: emailError(v.email),
    password: newPasswordError(v.password),
    storeName: storeNameError(v.storeName),
  };
}

export function firstError<K extends string>(errors: Errors<K>): K | undefined {
  return (Object.keys(errors) as K[]).find((k) => errors[k]);
}
