// The browser runtime's git against the machine's git: the same script runs in a temp folder with
// real bash and git and in a workspace with the browser runtime; each step's output must match
// (commit ids included: the same identity and dates give byte-identical objects).
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { WorkspaceFiles } from "../../src/runtime";
import { createBrowserRuntime } from "../../src/runtime/browser";
import { openStorage } from "../../src/storage";

const hasGit = (() => {
  try {
    execFileSync("git", ["--version"]);
    return true;
  } catch {
    return false;
  }
})();

const IDENTITY = {
  GIT_AUTHOR_NAME: "Ada Lovelace",
  GIT_AUTHOR_EMAIL: "ada@example.com",
  GIT_AUTHOR_DATE: "@1700000000 +0100",
  GIT_COMMITTER_NAME: "Ada Lovelace",
  GIT_COMMITTER_EMAIL: "ada@example.com",
  GIT_COMMITTER_DATE: "@1700000000 +0100",
};

/** Steps whose output is compared; setup steps (writing files) are compared too (they print nothing). */
const SCRIPT = [
  "printf 'alpha\\nbeta\\ngamma\\n' > a.txt && mkdir -p src/lib && printf 'export const x = 1;\\n' > src/lib/x.ts && printf 'notes\\n' > notes.md",
  "git status",
  "git add a.txt src && git status",
  "git status -s",
  "git commit -m 'First commit'",
  "git log",
  "printf 'alpha\\nBETA\\ngamma\\ndelta\\n' > a.txt && git diff",
  "git status",
  "git diff --stat",
  "git add a.txt && git diff --cached",
  "git diff",
  "git commit -m 'Second: change a' -m 'With a body line.'",
  "git log --oneline",
  "git log -n 1",
  "git log --format='%H %an <%ae> %s'",
  "git show HEAD",
  "git show HEAD~1:a.txt",
  "git diff HEAD~1 HEAD",
  "git diff HEAD~1 HEAD --name-only",
  "git branch feature && git branch",
  "git tag v1 && git tag",
  "git rm -q notes.md 2>&1; git add notes.md && git commit -q -m 'Add notes' && git rm notes.md && git status -s",
  "git mv a.txt b.txt && git status",
  "git reset -q --hard && git status -s",
  "printf 'one more\\n' >> src/lib/x.ts && git reset HEAD~1",
  "git status -s && git log --oneline",
  "git checkout -- src/lib/x.ts && git status",
  "git diff --cached --name-status HEAD~1",
];

let counter = 0;
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

describe.skipIf(!hasGit)("git in the browser runtime against the machine's git", () => {
  it("prints what git prints for status, add, commit, log, diff, show, branch, tag, rm, mv, reset, checkout", async () => {
    const real = mkdtempSync(join(tmpdir(), "webcode-git-"));
    cleanups.push(() => rmSync(real, { recursive: true, force: true }));
    const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: real, GIT_CONFIG_NOSYSTEM: "1", LANG: "C", LC_ALL: "C", ...IDENTITY };
    execFileSync("git", ["init", "-q", "-b", "main"], { cwd: real, env });

    const storage = await openStorage({ name: `git-differential-${counter++}-${Date.now()}` });
    const files = await WorkspaceFiles.open(storage, "ws");
    const runtime = createBrowserRuntime(files, {});
    cleanups.push(() => {
      runtime.dispose();
      files.dispose();
    });
    expect((await runtime.exec("git init -q")).exitCode).toBe(0);

    for (const step of SCRIPT) {
      let expected: string;
      try {
        expected = execFileSync("bash", ["-c", `(${step}) 2>&1`], { cwd: real, env, encoding: "utf8" });
      } catch (error) {
        expected = String((error as { stdout?: string }).stdout ?? "");
      }
      const ours = await runtime.exec(step, { env: IDENTITY });
      expect({ step, output: ours.output }).toEqual({ step, output: expected });
    }
  }, 60_000);
});
