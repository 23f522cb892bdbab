// The landing page's first-load JavaScript against the budget in
// perf-budget.json, read from the client build's route manifest.
// Sizes only: they do not vary with the machine's load (timings are
// benchmarks: make lighthouse, make bench). Needs `make build` (make test
// builds first); without a build it is skipped, except in CI.
// @vitest-environment node
import { describe, expect, it } from "vitest";
import { budget, firstLoad, readManifest, sizes } from "../scripts/first-load.mjs";

type Manifest = { routes: Record<string, { module: string; imports?: string[] }> };
const manifest = readManifest() as Manifest | null;
const missing = !manifest && process.env.CI !== "true";

describe.skipIf(missing)("first-load JavaScript of / (perf-budget.json)", () => {
  const { framework, site } = firstLoad(manifest, "home") as { framework: string[]; site: string[] };
  const limits = budget.firstLoad.home as { siteBrotliBytes: number; totalBrotliBytes: number };

  it(`keeps the site's own code within ${limits.siteBrotliBytes} bytes brotli, React and React Router aside`, () => {
    const { br } = sizes(site);
    expect(br, `site chunks: ${site.join(", ")}`).toBeLessThanOrEqual(limits.siteBrotliBytes);
  });

  it(`stays within ${limits.totalBrotliBytes} bytes brotli in all: the bare framework's bytes plus the site's budget`, () => {
    expect(sizes([...framework, ...site]).br).toBeLessThanOrEqual(limits.totalBrotliBytes);
  });

  it("loads no chunk its first view does not run (Google sign-in, sign-out, forms, the footer and the sections below the hero, the error page)", () => {
    const names = [...framework, ...site].map((url) => url.replace(/^\/assets\//, ""));
    for (const prefix of budget.notOnFirstLoad.home as string[]) {
      expect(names.filter((name) => name.startsWith(prefix)), prefix).toEqual([]);
    }
  });

  it.each(Object.keys(budget.notOnFirstLoad).filter((id) => id !== "home" && !id.startsWith("$")))(
    "%s loads none of the chunks only other pages run (perf-budget.json notOnFirstLoad)",
    (id) => {
      const { framework: f, site: s } = firstLoad(manifest, id) as { framework: string[]; site: string[] };
      const names = [...f, ...s].map((url) => url.replace(/^\/assets\//, ""));
      for (const prefix of budget.notOnFirstLoad[id] as string[]) {
        expect(names.filter((name) => name.startsWith(prefix)), prefix).toEqual([]);
      }
    },
  );

  const forms = budget.firstLoad.forms as { siteBrotliBytes: number; pages: string[] };
  it.each(forms.pages)(`%s, a form, keeps its site code within ${forms.siteBrotliBytes} bytes brotli, validation included`, (id) => {
    const { site: s } = firstLoad(manifest, id) as { site: string[] };
    expect(sizes(s).br, `site chunks: ${s.join(", ")}`).toBeLessThanOrEqual(forms.siteBrotliBytes);
  });

  it("no page's first load includes Google sign-in: it loads only where a client id is configured", () => {
    const all = Object.values(manifest!.routes).flatMap((r) => [r.module, ...(r.imports ?? [])]);
    expect(all.some((url) => url.includes("/google-signin-"))).toBe(false);
  });
});
