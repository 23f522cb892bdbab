// lib/deferred-scripts.tsx takes React Router's <Scripts> markup apart: a
// React Router upgrade that changes it must fail here, not ship a page that
// never hydrates.
import { describe, expect, it } from "vitest";
import { BOOT, DEEP_LINK_STYLESHEET, scriptParts } from "./deferred-scripts.server";
import { NEAR_MEDIA } from "~/components/ui/image";
import { FIRST_INTERACTION } from "./near-images";

const markup =
  '<link rel="modulepreload" href="/assets/entry.client-A.js" nonce="n"/><link rel="modulepreload" href="/assets/a.js?x=1&amp;y=2" nonce="n"/>' +
  '<script nonce="n">window.__reactRouterContext = {};</script>' +
  '<script nonce="n" type="module" async="">import * as route0 from "/assets/root-B.js";\nimport("/assets/entry.client-A.js");</script>';

describe("scriptParts", () => {
  it("finds the preloads, the context script and the module script", () => {
    expect(scriptParts(markup)).toEqual({
      preload: ["/assets/entry.client-A.js", "/assets/a.js?x=1&y=2"],
      context: "window.__reactRouterContext = {};",
      module: 'import * as route0 from "/assets/root-B.js";\nimport("/assets/entry.client-A.js");',
    });
  });

  it("refuses markup it does not know", () => {
    expect(() => scriptParts('<script type="module">import "/a.js";</script>')).toThrow(/unexpected <Scripts> markup/);
    expect(() => scriptParts(markup + '<script type="importmap">{}</script>')).toThrow(/unexpected <Scripts> markup/);
  });
});

describe("the loader scripts", () => {
  it("are static scripts no markup can end early", () => {
    for (const script of [BOOT, DEEP_LINK_STYLESHEET]) {
      expect(script).not.toMatch(/<\/script/i);
      expect(() => new Function(script)).not.toThrow();
    }
  });
});

describe("the pictures' watcher in BOOT (lib/near-images.ts)", () => {
  it("announces the first interaction by the name the bundle listens for", () => {
    expect(BOOT).toContain(`"${FIRST_INTERACTION}"`);
  });

  it("releases the pictures whose <source> has the media Image writes", () => {
    expect(BOOT).toContain(`source[media="${NEAR_MEDIA}"]`);
  });
});
