// The contact form's rules on the page, mirroring the edge's checks
// (edge/internal/contact) from the same shared/content/contact.json, so the
// visitor sees the same message inline that the edge would answer with.

import { check } from "./validation";

export type ContactFieldName = "name" | "email" | "company" | "phone" | "cvUrl" | "message";

export interface ContactFieldRule {
  label: string;
  type: string;
  autoComplete?: string;
  required: boolean;
  minLength?: number;
  maxLength: number;
  error: string;
}

export type ContactOutcome = "sent" | "invalid" | "too-large" | "rate-limited" | "unavailable";
export const CONTACT_OUTCOMES: readonly ContactOutcome[] = ["sent", "invalid", "too-large", "rate-limited", "unavailable"];

/** The endpoint (SPEC §7); the form posts here with or without JavaScript. */
export const CONTACT_ENDPOINT = "/api/v1/omnibus/contact-us";

const PHONE = /^\+?[0-9 ().-]+$/;

/** An absolute http(s) link with a host and no user part, as the edge accepts (validLink). */
function isLink(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "https:" || url.protocol === "http:") && url.host !== "" && url.username === "" && url.password === "";
  } catch {
    return false;
  }
}

/** The field's error message when value breaks its rule, else "". */
export function fieldError(name: ContactFieldName, rule: ContactFieldRule, raw: string): string {
  const value = raw.trim();
  if (value === "") return rule.required ? rule.error : "";
  // Lengths, the e-mail pattern and forbidden characters: shared/validation.json.
  if (check(name, value)) return rule.error;
  if (name === "cvUrl" && !isLink(value)) return rule.error;
  if (name === "phone") {
    const digits = value.replace(/\D/g, "").length;
    if (!PHONE.test(value) || digits < 7 || digits > 15) return rule.error;
  }
  return "";
}

/** The `pattern` attribute of the phone input, for browsers checking the form without our script. */
export const PHONE_PATTERN = "\\+?[0-9 \\(\\)\\.\\-]{7,20}";
