// The renderer's side of shared/validation.json: one zod schema per form
// field, built from the same description the edge's validator
// (edge/internal/validation) is built from, so a value the page accepts is
// one the edge accepts. Both sides run shared/validation-cases.json.
import { z } from "zod";
import rules from "../../../shared/validation.json";

export type FieldName = keyof typeof rules.fields;
/** Why a value is refused; "" when it is valid (the edge's problem codes). */
export type Problem = "" | "required" | "invalid" | "tooShort" | "tooLong" | "forbidden";

interface Rule {
  required: boolean;
  minLength?: number;
  maxLength: number;
  multiline?: boolean;
  pattern?: string;
}

const fields = rules.fields as Record<FieldName, Rule>;
const multilineAllowed = new Set(rules.forbidden.multilineAllowed);

/** A code point no text field takes (a multiline one also takes tab, LF, CR). */
export function hasForbidden(s: string, multiline = false): boolean {
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (c >= 0xd800 && c <= 0xdfff) return true; // a lone surrogate is not text
    for (const [lo, hi] of rules.forbidden.ranges) {
      if (c >= lo && c <= hi && !(multiline && multilineAllowed.has(c))) return true;
    }
  }
  return false;
}

/** Lengths count code points, as the edge does. */
const length = (s: string) => [...s].length;

function schema(name: FieldName) {
  const r = fields[name];
  const value = z.string().transform((v) => (name === "password" ? v : v.trim()));
  if (r.pattern) {
    const re = new RegExp(r.pattern);
    return value.pipe(
      z
        .string()
        .refine((v) => v.trim() !== "", { message: "required", abort: true })
        .refine((v) => length(v) <= r.maxLength && !hasForbidden(v) && re.test(v), { message: "invalid" }),
    );
  }
  return value.pipe(
    z
      .string()
      .refine((v) => v.trim() !== "", { message: "required", abort: true })
      .refine((v) => name === "password" || !hasForbidden(v, r.multiline), { message: "forbidden", abort: true })
      .refine((v) => length(v) >= (r.minLength ?? 0), { message: "tooShort", abort: true })
      .refine((v) => length(v) <= r.maxLength, { message: "tooLong", abort: true }),
  );
}

/** The zod schema of each field of shared/validation.json. */
export const schemas = Object.fromEntries((Object.keys(fields) as FieldName[]).map((k) => [k, schema(k)])) as Record<
  FieldName,
  ReturnType<typeof schema>
>;

/** Checks a value against a field's rule: its problem, or "" when valid. */
export function check(name: FieldName, value: string): Problem {
  if (!fields[name].required && value.trim() === "") return "";
  const r = schemas[name].safeParse(value);
  return r.success ? "" : (r.error.issues[0].message as Problem);
}

/** A field's length limits, for the inputs' minLength and maxLength attributes. */
export function limits(name: FieldName): { minLength?: number; maxLength: number } {
  return { minLength: fields[name].minLength, maxLength: fields[name].maxLength };
}
