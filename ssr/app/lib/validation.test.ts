import { describe, expect, it } from "vitest";
import cases from "@omnibus/shared/validation-cases.json";
import { check, type FieldName, type Problem } from "./validation";

// The table the edge runs too (edge/internal/validation).
describe("shared/validation-cases.json", () => {
  it("has cases", () => expect(cases.cases.length).toBeGreaterThan(20));
  for (const c of cases.cases as { field: FieldName; input: string; repeat?: [string, number]; problem: Problem }[]) {
    const input = (c.repeat ? c.repeat[0].repeat(c.repeat[1]) : "") + c.input;
    it(`${c.field} ${JSON.stringify(input).slice(0, 60)} → ${c.problem || "valid"}`, () => {
      expect(check(c.field, input)).toBe(c.problem);
    });
  }
});

// The five copies of the e-mail rule are one: sign-in and the contact form
// agree (`a,b@x.in` passed one and failed the other).
import auth from "@omnibus/shared/content/auth.json";
import contact from "@omnibus/shared/content/contact.json";
import { emailError, validateRegister } from "../components/auth/validation";
import { fieldError } from "./contact-form";

describe("one e-mail rule everywhere", () => {
  it("sign-in, register and contact refuse the same addresses", () => {
    for (const bad of ["a,b@x.in", "not-an-email", "jane@localhost"]) {
      expect(emailError(bad)).toBe(auth.messages.emailInvalid);
      expect(fieldError("email", contact.fields.email, bad)).toBe(contact.fields.email.error);
    }
    expect(emailError("jane@example.com")).toBeUndefined();
    expect(fieldError("email", contact.fields.email, "jane@example.com")).toBe("");
  });
  it("a name with a line break or a bidi override is refused on the page", () => {
    const v = { email: "ana@example.com", password: "correct horse", storeName: "ana" };
    expect(validateRegister({ ...v, name: "Ana\nLima" }).name).toBe(auth.messages.nameInvalid);
    expect(validateRegister({ ...v, name: "Ana \u202eamiL" }).name).toBe(auth.messages.nameInvalid);
    expect(validateRegister({ ...v, name: "Ana Lima", storeName: "ana\nshop" }).storeName).toBe(auth.messages.storeNameInvalid);
  });
});
