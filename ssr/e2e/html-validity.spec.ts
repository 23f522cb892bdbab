// The W3C Nu Html Checker (vnu.jar from the vnu-jar package, on Debian's Java:
// `make java`) over the server-rendered HTML of every route of the table and
// the not-found page: no errors (warnings are not failures).
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test } from "@playwright/test";
import vnuJar from "vnu-jar";
import { examplePath, routes } from "./helpers";

test("every page is valid HTML by the Nu Html Checker", async ({ request }) => {
  test.setTimeout(240_000);
  const dir = mkdtempSync(path.join(os.tmpdir(), "omnibus-vnu-"));
  try {
    const files: Record<string, string> = {};
    for (const [i, url] of [...routes.map((r) => examplePath(r.path)), "/this/page/does-not-exist"].entries()) {
      const file = path.join(dir, `${i}.html`);
      writeFileSync(file, await (await request.get(url)).text());
      files[file] = url;
    }
    // vnu exits 1 when it finds errors; its JSON report is on stderr either way.
    const result = await promisify(execFile)("java", ["-Xss1m", "-jar", String(vnuJar), "--errors-only", "--format", "json", ...Object.keys(files)], {
      maxBuffer: 64 * 1024 * 1024,
    }).catch((error: { stderr?: string; code?: number }) => {
      if (typeof error.stderr !== "string" || !error.stderr.startsWith("{")) throw error;
      return error as { stderr: string };
    });
    const { messages } = JSON.parse(result.stderr) as { messages: { type: string; url: string; message: string; extract?: string }[] };
    const errors = messages
      // The HTML, not the inline critical CSS (docs/decisions/0013-critical-css.md): the checker's
      // CSS validator predates @property, margin-trim and other CSS Tailwind emits,
      // and the external stylesheet it replaced was never checked either.
      .filter((m) => m.type === "error" && !m.message.startsWith("CSS: "))
      // The checker allows blocking="render" on stylesheet links only; the HTML
      // Standard also allows it on rel="expect" (whatwg/html#9970, 2024), which
      // root.tsx and the sign-in cards use so that no half navigation bar or
      // half card is painted.
      .filter((m) => !(m.message.startsWith("A “link” element with a “blocking” attribute") && /rel="expect" href="#(nav|card)-end"/.test(m.extract ?? "")))
      .map((m) => `${files[decodeURIComponent(new URL(m.url).pathname)] ?? m.url}: ${m.message}${m.extract ? ` — ${m.extract.trim().slice(0, 120)}` : ""}`);
    expect(errors).toEqual([]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
