import { describe, expect, it } from "vitest";
import cases from "@omnibus/shared/front-matter-cases.json";
import { formatDate, parseArticle } from "./front-matter";

describe("formatDate", () => {
  it("writes the en-IN long date Intl would, for every month", () => {
    const intl = new Intl.DateTimeFormat("en-IN", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
    for (let month = 1; month <= 12; month++) {
      for (const day of [1, 9, 28]) {
        const date = `2026-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
        expect(formatDate(date)).toBe(intl.format(new Date(`${date}T00:00:00Z`)));
      }
    }
  });
});

// Shared/front-matter-cases.json, which the edge's parser
// (edge/internal/content.Parse) runs too.
describe("shared/front-matter-cases.json", () => {
  it.each(cases.cases)("$name", (c) => {
    if ("article" in c && c.article) expect(parseArticle(c.source)).toEqual(c.article);
    else expect(() => parseArticle(c.source)).toThrow(("error" in c && c.error) || "never");
  });
});
