// A concrete URL for each route pattern of the table, for tests: parameterised
// routes get the slug of a real article or category from shared/content, so
// the page renders (unknown slugs are 404s).
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { firstSlug } from "../scripts/first-load.mjs";

const content = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "shared", "content");

function firstHelpCategory(): string {
  const { categories } = JSON.parse(readFileSync(path.join(content, "help", "categories.json"), "utf8")) as { categories: { slug: string }[] };
  return categories[0].slug;
}

const SLUGS: Record<string, () => string> = {
  "/blog/article/:slug": () => firstSlug("blog"),
  "/help/category/article/:slug": () => firstSlug("help"),
  "/help/category/:slug": firstHelpCategory,
};

export function examplePath(pattern: string): string {
  if (!pattern.includes(":")) return pattern;
  const slug = SLUGS[pattern];
  if (!slug) throw new Error(`no example slug for ${pattern}: add one to e2e/example-paths.ts`);
  return pattern.replace(":slug", slug());
}
