import { describe, expect, it } from "vitest";
import { getPattern, isbot, list } from "isbot";
import bots from "@omnibus/shared/bots.json";

// The edge counts crawlers apart (edge/internal/analytics) by shared/bots.json,
// and the renderer tells crawlers from browsers with isbot: one list.
describe("shared/bots.json", () => {
  it("is the installed isbot's pattern list (regenerate with node ssr/scripts/bots.mjs)", () => {
    expect(bots.patterns).toEqual(list);
  });

  it("joined as the edge joins it, matches what isbot matches", () => {
    const edge = new RegExp(bots.patterns.join("|"), "i");
    expect(edge.source).toBe(getPattern().source);
    for (const ua of [
      "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
    ]) {
      expect(edge.test(ua)).toBe(isbot(ua));
    }
  });

  it("names each crawler by a lower-case substring that isbot counts as a bot", () => {
    for (const c of bots.crawlers) {
      expect(c.match).toBe(c.match.toLowerCase());
      expect(c.name).toMatch(/^[a-z0-9-]{1,24}$/);
    }
  });
});
