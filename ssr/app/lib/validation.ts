// The renderer's side of shared/validation.json: one zod schema per form
// field, built from the same description the edge's validator
// (edge/internal/validation) is built from, so a value the page accepts is
// one the edge accepts. Both sides run shared/validation-cases.json.
// zod/mini: the same checks as zod's chained API, in a fifth of its code
// (the validation chunk every form and the footer's newsletter box load).
import * as z from "zod/mini";
import rules from "@omnibus/shared/validation.json";

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
/** The Unicode categories no text field takes (Cf: the invisible format characters). */
const categories = rules.forbidden.categories.map((c) => new RegExp(`^\\p{${c}}$`, "u"));

/** A code point no text field takes (a multiline one also takes tab, LF, CR). */
export function hasForbidden(s: string, multiline = false): boolean {
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (c >= 0xd800 && c <= 0xdfff) return true; // a lone surrogate is not text
    for (const [lo, hi] of rules.forbidden.ranges) {
      if (c >= lo && c <= hi && !(multiline && multilineAllowed.has(c))) return true;
    }
    if (c >= 0x80 && categories.some((re) => re.test(ch))) return true;
  }
  return false;
}

/** Lengths count code points, as the edge does. */
const length = (s: string) => [...s].length;

function schema(name: FieldName) {
  const r = fields[name];
  const value = z.pipe(
    z.string(),
    z.transform((v: string) => (name === "password" ? v : v.trim())),
  );
  const required = z.refine<string>((v) => v.trim() !== "", { message: "required", abort: true });
  if (r.pattern) {
    const re = new RegExp(r.pattern);
    return z.pipe(
      value,
      z.string().check(
        required,
        z.refine<string>((v) => length(v) <= r.maxLength && !hasForbidden(v) && re.test(v), { message: "invalid" }),
      ),
    );
  }
  return z.pipe(
    value,
    z.string().check(
      required,
      z.refine<string>((v) => name === "password" || !hasForbidden(v, r.multiline), { message: "forbidden", abort: true }),
      z.refine<string>((v) => length(v) >= (r.minLength ?? 0), { message: "tooShort", abort: true }),
      z.refine<string>((v) => length(v) <= r.maxLength, { message: "tooLong", abort: true }),
    ),
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
