import { describe, expect, it } from "vitest";
import contact from "@omnibus/shared/content/contact.json";
import { fieldError, PHONE_PATTERN, type ContactFieldName } from "./contact-form";

const rule = (name: ContactFieldName) => contact.fields[name];
const check = (name: ContactFieldName, value: string) => fieldError(name, rule(name), value);

describe("contact field rules (same as the edge's)", () => {
  it("requires name, e-mail and message but not company or phone", () => {
    expect(check("name", "  ")).toBe(contact.fields.name.error);
    expect(check("email", "")).toBe(contact.fields.email.error);
    expect(check("message", "")).toBe(contact.fields.message.error);
    expect(check("company", "")).toBe("");
    expect(check("phone", "")).toBe("");
  });

  it("checks lengths in characters", () => {
    expect(check("name", "अ".repeat(100))).toBe("");
    expect(check("name", "अ".repeat(101))).toBe(contact.fields.name.error);
    expect(check("message", "Too short")).toBe(contact.fields.message.error);
    expect(check("message", "Long enough now")).toBe("");
    expect(check("message", "m".repeat(contact.fields.message.maxLength + 1))).toBe(contact.fields.message.error);
  });

  it("accepts plain addresses with a dotted domain only", () => {
    for (const ok of ["ada@example.com", "a.b+c@shop.co.in"]) expect(check("email", ok), ok).toBe("");
    for (const bad of ["ada", "ada@", "ada@example", "Ada <ada@example.com>", "a@b.", "a b@c.in"]) {
      expect(check("email", bad), bad).toBe(contact.fields.email.error);
    }
  });

  it("accepts 7 to 15 digits with the usual separators", () => {
    for (const ok of ["+91 80 4567 8900", "(080) 4567-8900", "9876543210"]) expect(check("phone", ok), ok).toBe("");
    for (const bad of ["12345", "call me", "+91 80 4567 8900 1234 5", "91+8045678900"]) {
      expect(check("phone", bad), bad).toBe(contact.fields.phone.error);
    }
  });

  it("has a phone pattern browsers accept in their strictest (v) mode", () => {
    const pattern = new RegExp(`^(?:${PHONE_PATTERN})$`, "v");
    expect(pattern.test("+91 80 4567 8900")).toBe(true);
    expect(pattern.test("call me")).toBe(false);
  });
});
