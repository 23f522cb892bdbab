// The site speaks with one voice: every message a visitor can be shown when
// something is refused reads as a sentence, and every example address is the
// same one, so two forms never teach a visitor two different things.
import { describe, expect, it } from "vitest";
import auth from "@omnibus/shared/content/auth.json";
import contact from "@omnibus/shared/content/contact.json";
import journey from "@omnibus/shared/content/journey.json";
import newsletter from "@omnibus/shared/content/newsletter.json";
import validation from "@omnibus/shared/validation.json";

/** The product specification's own words, which keep its exact spelling (no full stop). */
const SPEC_WORDING = new Set(["Please provide an email address", "Please enter a valid value"]);

const files = { auth, contact, journey, newsletter, validation } as Record<string, unknown>;

function strings(value: unknown, path: string, out: Array<[string, string]>): Array<[string, string]> {
  if (typeof value === "string") out.push([path, value]);
  else if (Array.isArray(value)) value.forEach((v, i) => strings(v, `${path}[${i}]`, out));
  else if (value && typeof value === "object")
    for (const [k, v] of Object.entries(value)) if (k !== "$comment") strings(v, `${path}.${k}`, out);
  return out;
}

const all = Object.entries(files).flatMap(([name, json]) => strings(json, name, []));
/** Messages shown when something is refused or fails: the keys name them so. */
const refusals = all.filter(([path, text]) => /(error|message|required|invalid|taken|unavailable|refused)[^.]*$/i.test(path) && !/label$/i.test(path) && !text.includes("\n") && /^(Please|We could not|That|This|Too many|Your|Enter|Choose|Use)/.test(text));

describe("site copy", () => {
  it("finds the refusal messages it checks (the filter matches the content's shape)", () => {
    expect(refusals.length).toBeGreaterThan(20);
  });

  it("ends every refusal message with a full stop, as a sentence, except the specification's own words", () => {
    const bad = refusals.filter(([, text]) => !SPEC_WORDING.has(text) && !/[.!?]$/.test(text)).map(([path, text]) => `${path}: ${text}`);
    expect(bad).toEqual([]);
  });

  it("uses one example e-mail address everywhere", () => {
    const examples = new Set(all.flatMap(([, text]) => text.match(/\byou@[a-z.]+[a-z]/g) ?? []));
    expect([...examples]).toEqual(["you@yourstore.com"]);
  });
});
