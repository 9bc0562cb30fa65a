// Bundled short options of the browser runtime's git (`-qm msg`, `-am msg`, `-sb`, `-n3`): split as
// git's parse-options does, and an unknown letter in a bundle answered with git's error.
import { afterEach, describe, expect, it } from "vitest";
import { WorkspaceFiles } from "../../src/runtime";
import { createBrowserRuntime } from "../../src/runtime/browser";
import { splitShortOptions } from "../../src/runtime/browser/git/git-options";
import { openStorage } from "../../src/storage";

const IDENTITY = { GIT_AUTHOR_NAME: "Ada", GIT_AUTHOR_EMAIL: "ada@example.com", GIT_COMMITTER_NAME: "Ada", GIT_COMMITTER_EMAIL: "ada@example.com" };

let counter = 0;
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

async function repository() {
  const store = await openStorage({ name: `git-short-${counter++}-${Date.now()}` });
  const files = await WorkspaceFiles.open(store, "ws");
  const runtime = createBrowserRuntime(files, {});
  cleanups.push(() => {
    runtime.dispose();
    files.dispose();
  });
  const sh = async (command: string) => runtime.exec(command, { env: IDENTITY });
  await files.writeFile("a.txt", "alpha\n");
  const setup = await sh("git init -q && git add . && git commit -q -m 'Initial commit'");
  expect(setup.exitCode, setup.output).toBe(0);
  return { files, sh };
}

describe("splitting bundled short options", () => {
  it("splits flags, gives the last letter its value from the rest or the next argument", () => {
    expect(splitShortOptions("commit", ["-qm", "msg"])).toEqual(["-q", "-m", "msg"]);
    expect(splitShortOptions("commit", ["-am", "msg", "--", "-qm"])).toEqual(["-a", "-m", "msg", "--", "-qm"]);
    expect(splitShortOptions("commit", ["-mfix it"])).toEqual(["-m", "fix it"]);
    expect(splitShortOptions("commit", ["-m", "-qa"])).toEqual(["-m", "-qa"]);
    expect(splitShortOptions("log", ["-n3", "-3", "-pn", "2"])).toEqual(["-n", "3", "-3", "-p", "-n", "2"]);
    expect(splitShortOptions("status", ["-sb", "-uno"])).toEqual(["-s", "-b", "-uno"]);
    expect(splitShortOptions("rm", ["-rf", "dir"])).toEqual(["-r", "-f", "dir"]);
    expect(splitShortOptions("checkout", ["-qb", "topic"])).toEqual(["-q", "-b", "topic"]);
  });

  it("an unknown letter or a missing value is git's usage error (exit 129)", () => {
    expect(() => splitShortOptions("commit", ["-qx"])).toThrow("error: unknown switch `x'");
    expect(() => splitShortOptions("commit", ["-qm"])).toThrow("error: switch `m' requires a value");
    // Letters whose meaning the browser runtime's git would drop (a dry run, push --delete) are refused.
    expect(() => splitShortOptions("push", ["-ud"])).toThrow("error: unknown switch `d'");
    expect(() => splitShortOptions("rm", ["-rn"])).toThrow("error: unknown switch `n'");
    try {
      splitShortOptions("status", ["-sZ"]);
      expect.unreachable();
    } catch (error) {
      expect((error as { exitCode: number }).exitCode).toBe(129);
    }
  });
});

describe("git with bundled short options", () => {
  it("commit -qm and -am commit quietly with the message; status -sb shows the branch line", async () => {
    const { files, sh } = await repository();
    await files.writeFile("a.txt", "changed\n");
    const am = await sh("git commit -am 'Change a'");
    expect(am.exitCode, am.output).toBe(0);
    expect(am.output).toMatch(/^\[main [0-9a-f]{7}\] Change a\n/);
    await files.writeFile("b.txt", "bee\n");
    const qm = await sh("git add b.txt && git commit -qm 'Add b'");
    expect(qm.exitCode, qm.output).toBe(0);
    expect(qm.output).toBe("");
    await files.writeFile("c.txt", "sea\n");
    const status = await sh("git status -sb");
    expect(status.output).toBe("## main\n?? c.txt\n");
    const log = await sh("git log --oneline -n2");
    expect(log.output.split("\n").filter(Boolean).map((l) => l.slice(8))).toEqual(["Add b", "Change a"]);
    const attached = await sh("git log --format=%s -n1");
    expect(attached.output).toBe("Add b\n");
  });

  it("log -p shows each commit's patch, show -s only the header; unknown letters fail like git", async () => {
    const { files, sh } = await repository();
    await files.writeFile("a.txt", "beta\n");
    await sh("git commit -qam 'Beta'");
    const patch = await sh("git log -pn1");
    expect(patch.exitCode, patch.output).toBe(0);
    expect(patch.output).toContain("    Beta\n\ndiff --git a/a.txt b/a.txt\n");
    expect(patch.output).toContain("-alpha\n+beta\n");
    expect(patch.output).not.toContain("Initial commit");
    const header = await sh("git show -s");
    expect(header.output).toContain("    Beta\n");
    expect(header.output).not.toContain("diff --git");
    const unknown = await sh("git commit -qxm 'nope'");
    expect(unknown.exitCode).toBe(129);
    expect(unknown.output).toContain("error: unknown switch `x'");
    expect((await sh("git log --oneline")).output.split("\n").filter(Boolean)).toHaveLength(2);
  });
});
