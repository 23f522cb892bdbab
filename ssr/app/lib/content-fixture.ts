// Tests only: page requests as the edge sends them for a fresh content
// store, from shared/testdata/content-pages.json (written by the edge's own
// test from its real output, edge/internal/content fixture_test.go).
import fixture from "@omnibus/shared/testdata/content-pages.json";
import { encodePageContent, type PageContent } from "./content.server";
import { CONTENT_HEADER } from "./http-names";

const pages = fixture.pages as unknown as Record<string, PageContent>;

/** The content the edge sends with path's page request (throws for a path the fixture lacks). */
export function fixtureContent(path: string): PageContent {
  const content = pages[path];
  if (!content) throw new Error(`shared/testdata/content-pages.json has no ${path}`);
  return content;
}

/** Every content page of the fixture. */
export const fixturePaths = (): string[] => Object.keys(pages);

/** path's page request as the edge proxies it, with its content header. */
export function contentRequest(path: string, content: PageContent = fixtureContent(path)): Request {
  return new Request(`http://127.0.0.1${path}`, { headers: { [CONTENT_HEADER]: encodePageContent(content) } });
}
