// The page's language and the feeds' language are one setting: the edge
// reads shared/content/site.json's locale for the feeds, the renderer
// writes LOCALE into <html lang>. They must not drift apart.
import { expect, it } from "vitest";
import site from "@omnibus/shared/content/site.json";
import { LOCALE } from "./constants";

it("writes the language the feeds declare into every page", () => {
  expect(LOCALE).toBe(site.locale);
});
