// Inline validation of the sign-in forms: the same rules and words as the
// edge (internal/accounts), so most mistakes are caught before a round trip.
// The edge stays the authority (common passwords, reserved and taken names).
// Every rule comes from shared/validation.json (lib/validation.ts).
import auth from "@omnibus/shared/content/auth.json";
import rules from "@omnibus/shared/validation.json";
import { check, limits } from "../../lib/validation";

const m = auth.messages;
export const MIN_PASSWORD = limits("password").minLength ?? 8;
export const MAX_PASSWORD = limits("password").maxLength;

export type Errors<K extends string> = Partial<Record<K, string>>;

export function emailError(email: string): string | undefined {
  const p = check("email", email);
  if (p === "required") return m.emailRequired;
  if (p) return m.emailInvalid;
}

export function newPasswordError(password: string): string | undefined {
  if (password.trim() === "") return m.passwordRequired;
  const p = check("password", password);
  if (p === "tooShort") return m.passwordTooShort;
  if (p === "tooLong") return m.passwordTooLong;
}

/**
 * A wanted store name as the subdomain it would get (edge: accounts.Slug;
 * both run shared/validation-cases.json's slugs): each character by its
 * simple lower case (İ is i, as Go's unicode.ToLower has it, not "i̇"),
 * ASCII letters and digits kept, every other run one hyphen, none at the ends.
 */
export function slugify(name: string): string {
  return Array.from(name, (ch) => Array.from(ch.toLowerCase())[0] ?? "")
    .join("")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** Store names the platform keeps for itself (shared/validation.json). */
const reserved = new Set<string>(rules.fields.storeName.reserved);

export function storeNameError(name: string): string | undefined {
  if (name.trim() === "") return m.storeNameRequired;
  if (check("storeName", name) === "forbidden") return m.storeNameInvalid;
  const slug = slugify(name);
  const { minLength = 3, maxLength } = limits("storeName");
  if (slug.length < minLength) return m.storeNameTooShort;
  if (slug.length > maxLength) return m.storeNameTooLong;
  if (reserved.has(slug)) return m.storeNameReserved;
}

export function validateLogin(v: { email: string; password: string }): Errors<"email" | "password"> {
  return { email: emailError(v.email), password: v.password === "" ? m.passwordRequired : undefined };
}

export function validateRegister(v: { name: string; email: string; password: string; storeName: string }): Errors<"name" | "email" | "password" | "storeName"> {
  const name = check("name", v.name);
  return {
    name: name === "required" ? m.nameRequired : name === "tooLong" ? m.nameTooLong : name ? m.nameInvalid : undefined,
    email: emailError(v.email),
    password: newPasswordError(v.password),
    storeName: storeNameError(v.storeName),
  };
}

export function firstError<K extends string>(errors: Errors<K>): K | undefined {
  return (Object.keys(errors) as K[]).find((k) => errors[k]);
}
