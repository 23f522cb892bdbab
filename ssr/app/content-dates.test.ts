// scripts/content-dates.mjs: shared/content-dates.json (the sitemap's
// lastmod of pages without a date of their own) is what git's history says,
// and `--check` (make lint) fails when the committed file is stale, naming
// the files. Run in a throwaway repository laid out like this one.
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const script = path.resolve(import.meta.dirname, "../../scripts/content-dates.mjs");
const repo = mkdtempSync(path.join(tmpdir(), "content-dates-"));
afterAll(() => rmSync(repo, { recursive: true, force: true }));

const env = { ...process.env, HOME: repo, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" };
const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.invalid", ...args], { cwd: repo, env, encoding: "utf8" });
function commitOn(day: string, message: string) {
  git("add", "-A");
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-qm", message], {
    cwd: repo,
    env: { ...env, GIT_AUTHOR_DATE: `${day}T12:00:00Z`, GIT_COMMITTER_DATE: `${day}T12:00:00Z` },
  });
}
const run = (...args: string[]) => spawnSync("node", [path.join(repo, "scripts/content-dates.mjs"), ...args], { cwd: repo, env, encoding: "utf8" });
const write = (file: string, text: string) => writeFileSync(path.join(repo, file), text);
const dates = () => JSON.parse(readFileSync(path.join(repo, "shared/content-dates.json"), "utf8")).files;

describe("scripts/content-dates.mjs", () => {
  it("dates each content file by its last commit, and --check passes once that file is committed", () => {
    git("init", "-q");
    mkdirSync(path.join(repo, "scripts"));
    mkdirSync(path.join(repo, "shared/content"), { recursive: true });
    copyFileSync(script, path.join(repo, "scripts/content-dates.mjs"));
    write("shared/routes.json", "{}\n");
    write("shared/content/landing.json", '{"v": 1}\n');
    commitOn("2026-01-02", "content");
    expect(run().status).toBe(0);
    expect(dates()).toEqual({ "content/landing.json": "2026-01-02", "routes.json": "2026-01-02" });
    commitOn("2026-01-03", "dates");
    const checked = run("--check");
    expect(checked.stderr).toBe("");
    expect(checked.status).toBe(0);
  });

  it("--check fails, naming the file and the fix, when content changed after the committed dates", () => {
    write("shared/content/landing.json", '{"v": 2}\n');
    commitOn("2026-02-10", "new landing copy");
    const checked = run("--check");
    expect(checked.status).toBe(1);
    expect(checked.stderr).toContain("content/landing.json: committed 2026-01-02, git says 2026-02-10");
    expect(checked.stderr).toContain("node scripts/content-dates.mjs");
    // --check writes nothing; the generator then refreshes the file, and once it is committed the check passes.
    expect(dates()["content/landing.json"]).toBe("2026-01-02");
    run();
    expect(run("--check").status).toBe(1); // rewritten, not yet committed
    commitOn("2026-02-10", "dates");
    expect(run("--check").status).toBe(0);
  });

  it("keeps the committed dates in a shallow clone, whose history ends early, and --check says it cannot judge there without failing the lint", () => {
    const shallow = path.join(repo, "shallow");
    git("clone", "-q", "--depth", "1", `file://${repo}`, shallow);
    const inShallow = (...args: string[]) => spawnSync("node", [path.join(shallow, "scripts/content-dates.mjs"), ...args], { cwd: shallow, env, encoding: "utf8" });
    const before = readFileSync(path.join(shallow, "shared/content-dates.json"), "utf8");
    expect(inShallow().status).toBe(0);
    expect(readFileSync(path.join(shallow, "shared/content-dates.json"), "utf8")).toBe(before);
    const checked = inShallow("--check");
    expect(checked.status).toBe(0);
    expect(checked.stderr).toContain("shallow");
    expect(checked.stderr).toContain("not checked");
  });
});
