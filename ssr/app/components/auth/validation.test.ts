// The store-name rule's shared cases (shared/validation-cases.json's slugs),
// which the edge runs too (accounts.Slug, storeNameProblem): the subdomain a
// wanted name becomes and the words it is refused with before the edge is
// asked whether it is taken.
import { describe, expect, it } from "vitest";
import auth from "@omnibus/shared/content/auth.json";
import cases from "@omnibus/shared/validation-cases.json";
import { slugify, storeNameError } from "./validation";

describe("shared/validation-cases.json slugs", () => {
  const messages = auth.messages as Record<string, string>;
  it.each(cases.slugs)("$input → $slug ($problem)", ({ input, slug, problem }) => {
    expect(slugify(input)).toBe(slug);
    expect(storeNameError(input)).toBe(problem === "" ? undefined : messages[problem]);
  });
});
