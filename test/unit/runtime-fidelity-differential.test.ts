// Issue 28 ("the browser runtime never says yes when it means no"), measured against this machine's
// real Node, npm and git: each case runs the same thing in a temporary folder with the real tools
// and in a workspace of the browser runtime, and compares what a user relies on (exit codes, the
// summary lines, the variables a script sees, the graph git draws). Where the real tool is missing,
// the case is skipped. Kept fast: no network, no installs from a registry.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PreviewHub, WorkspaceFiles } from "../../src/runtime";
import { createBrowserRuntime } from "../../src/runtime/browser";
import { SandboxHost } from "../../src/runtime/sandbox";
import { openStorage } from "../../src/storage";
import { inProcessNodeEndpoint } from "../support/in-process-endpoint";
import { runNodeInProcess } from "../support/run-node";

function has(tool: string): boolean {
  try {
    execFileSync(tool, ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}
const HAS_NPM = has("npm");
const HAS_GIT = has("git");

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** The files in a fresh temporary folder, for the real tools. */
function realFolder(files: Record<string, string>): string {
  const folder = mkdtempSync(path.join(tmpdir(), "webcode-fidelity-"));
  folders.push(folder);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(folder, name)), { recursive: true });
    writeFileSync(path.join(folder, name), text);
  }
  return folder;
}

/** Runs a bash line in the real folder: stdout+stderr and the exit code. */
function realRun(folder: string, line: string, env: Record<string, string> = {}): { output: string; exitCode: number } {
  const result = spawnSync("bash", ["-c", line], {
    cwd: folder,
    encoding: "utf8",
    env: { ...process.env, npm_config_update_notifier: "false", npm_config_fund: "false", npm_config_audit: "false", NO_COLOR: "1", ...env },
  });
  return { output: result.stdout + result.stderr, exitCode: result.status ?? -1 };
}

let counter = 0;
async function browserRuntime(files: Record<string, string>) {
  const storage = await openStorage({ name: `fidelity-${counter++}-${Date.now()}` });
  const workspace = await WorkspaceFiles.open(storage, "ws");
  for (const [name, text] of Object.entries(files)) await workspace.writeFile(name, text);
  // With the Preview, as the page has it (where `npm run build` used to be taken for a dev server).
  return createBrowserRuntime(workspace, { node: new SandboxHost(inProcessNodeEndpoint, { keepSpare: false }), preview: new PreviewHub("http://app.test", () => `p${counter++}`) });
}

/** A program that prints the npm variables a script's programs see, as JSON (the paths made relative). */
const PRINT_NPM_ENV =
  "const e = process.env;\nconst picked = Object.fromEntries(Object.keys(e).filter((k) => /^npm_(package|lifecycle)_|^npm_command$|^INIT_CWD$/.test(k)).sort().map((k) => [k, e[k].split(process.cwd()).join('<project>')]));\nconsole.log(JSON.stringify(picked, null, 1));\nconsole.log(['npm_execpath', 'npm_node_execpath', 'npm_config_user_agent', 'npm_config_local_prefix', 'npm_config_npm_version', 'npm_config_cache', 'npm_config_userconfig'].filter((k) => !e[k]).join(' ') || 'all set');\n";

describe.skipIf(!HAS_NPM)("npm run: the variables a script's programs see", () => {
  it("npm_package_* (flattened as npm does), npm_lifecycle_*, INIT_CWD, npm_execpath and npm_config_*", async () => {
    const files = {
      "package.json": JSON.stringify({
        name: "demo",
        version: "1.2.3",
        description: "not exported",
        config: { port: "8080", nested: { a: 1, list: ["x", "y"] }, off: false },
        engines: { node: ">=18" },
        bin: { demo: "env.js" },
        scripts: { env: "node env.js" },
      }),
      "env.js": PRINT_NPM_ENV,
    };
    const real = realRun(realFolder(files), "npm run env --silent");
    const ours = await (await browserRuntime(files)).exec("npm run env --silent");
    expect(real.exitCode).toBe(0);
    expect(ours.exitCode).toBe(0);
    // npm 11 says npm_command=run, 10 said run-script: the rest is the same in both.
    const normalise = (text: string) => text.replace(/"npm_command": "run(-script)?"/, '"npm_command": "run"');
    expect(normalise(ours.output)).toBe(normalise(real.output));
  });
});

/** Runs node in the real folder. */
function realNode(folder: string, args: string[]): { stdout: string; stderr: string; exitCode: number } {
  const result = spawnSync(process.execPath, args, { cwd: folder, encoding: "utf8", env: { ...process.env, NO_COLOR: "1", NODE_OPTIONS: "" } });
  return { stdout: result.stdout, stderr: result.stderr, exitCode: result.status ?? -1 };
}

/** The summary's counts ("tests 4", "pass 3", "fail 1", …) of a spec or TAP report. */
function summary(report: string): string[] {
  return report
    .split("\n")
    .map((line) => /^(?:ℹ|#) (tests|suites|pass|fail|cancelled|skipped|todo) (\d+)$/.exec(line.trim()))
    .filter((match) => match !== null)
    .map((match) => `${match[1]} ${match[2]}`);
}

describe("node --test: a test file that fails to load", () => {
  const files = {
    "a.test.js": "const test = require('node:test');\ntest('a', () => {});\ntest('b', () => {});\ntest('c', () => {});\n",
    "b.test.js": "const test = require('node:test');\ntest('never runs', () => {});\nthrow new Error('load fails');\n",
  };
  for (const reporter of ["spec", "tap"]) {
    it(`counts as a failing test, and fails the run (${reporter})`, async () => {
      const args = ["--test", `--test-reporter=${reporter}`];
      const real = realNode(realFolder(files), args);
      const ours = await runNodeInProcess(args, files);
      expect(summary(real.stdout)).toContain("fail 1");
      expect(summary(ours.stdout)).toEqual(summary(real.stdout));
      expect(ours.exitCode).toBe(real.exitCode);
      expect(ours.stdout).toMatch(reporter === "tap" ? /^not ok \d+ - \/workspace\/b\.test\.js$/m : /^✖ \/workspace\/b\.test\.js /m);
      expect(ours.stdout).not.toContain("never runs");
      expect(ours.stderr).toContain("Error: load fails");
    });
  }
});

/** A commit at its own time (so that git's date order is the same in both), as a script step. */
const commitAt = (minute: number, message: string) =>
  `GIT_AUTHOR_DATE='@${1700000000 + minute * 60} +0000' GIT_COMMITTER_DATE='@${1700000000 + minute * 60} +0000' git commit -q --allow-empty -m '${message}'`;

const GIT_STEPS: string[] = [
  commitAt(1, "one"),
  commitAt(2, "two"),
  commitAt(3, "three"),
  "git log --format='%an %ae %at %ct %cn %ce %P %T'",
  "git log --graph --oneline",
  "git log --graph",
  "git checkout -q -b feature HEAD~1",
  commitAt(4, "f1"),
  commitAt(5, "f2"),
  "git checkout -q main",
  "git log --all --oneline",
  "git log --all --graph --oneline --decorate",
  "git tag v1 && git tag v0 HEAD~2 && git log --oneline --decorate --all",
  "git branch -a",
  "git branch tmp && git branch -q -d tmp && git branch --show-current && git branch --remotes",
  "git checkout -q -b side HEAD~1",
  commitAt(7, "s1"),
  "git checkout -q main",
  "git log --graph --all --oneline",
  "git log --graph --all",
  "git log --all --format='%h %s'",
  "git log --graph --oneline -n 2",
  "git log --reverse --oneline -n 2",
  "git log --reverse --graph; echo exit=$?",
  // Options git does not know: refused in git's words.
  "git log -Z; echo exit=$?",
  "git log --no-such-option; echo exit=$?",
  // git prints its whole usage after the first line; ours names the subcommand only.
  "git branch --no-such-option 2>/tmp/err.txt; echo exit=$?; head -1 /tmp/err.txt",
  "git status -Z 2>/tmp/err.txt; echo exit=$?; head -1 /tmp/err.txt",
];

/** Options git has and the browser runtime's git does not: refused (never ignored), exit non-zero, naming the option. */
const UNSUPPORTED: Array<[string, string]> = [
  ["git branch --sort=-committerdate", "sort"],
  ["git status --ignored", "ignored"],
  ["git commit --fixup HEAD", "fixup"],
  ["git diff --word-diff", "--word-diff"],
  ["git add --dry-run .", "dry-run"],
  ["git log --first-parent", "--first-parent"],
  ["git show --format=%H HEAD", "--format=%H"],
  ["git checkout --orphan x", "orphan"],
  ["git tag --sort=version:refname", "sort"],
  ["git stash push --include-untracked", "include-untracked"],
  ["git reset --keep HEAD", "keep"],
  ["git rm --dry-run x", "dry-run"],
];

/** Merges come from the machine's git in both (ours has no merge): the same objects, then the same log. */
const MERGE = `GIT_AUTHOR_DATE='@${1700000000 + 6 * 60} +0000' GIT_COMMITTER_DATE='@${1700000000 + 6 * 60} +0000' git merge -q --no-ff feature -m 'Merge feature'`;

describe.skipIf(!HAS_GIT)("git log --all, --graph, --decorate, branch -a and unknown options", () => {
  it("print what the machine's git prints, step by step", async () => {
    const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", GIT_CONFIG_NOSYSTEM: "1", LANG: "C", LC_ALL: "C", GIT_AUTHOR_NAME: "Ada", GIT_AUTHOR_EMAIL: "ada@example.com", GIT_COMMITTER_NAME: "Ada", GIT_COMMITTER_EMAIL: "ada@example.com" };
    const real = realFolder({});
    execFileSync("git", ["init", "-q", "-b", "main"], { cwd: real, env: { ...env, HOME: real } });
    const storage = await openStorage({ name: `fidelity-git-${counter++}-${Date.now()}` });
    const files = await WorkspaceFiles.open(storage, "ws");
    const runtime = createBrowserRuntime(files, {});
    expect((await runtime.exec("git init -q")).exitCode).toBe(0);
    const both = async (step: string, compare = true) => {
      const expected = spawnSync("bash", ["-c", `(${step}) 2>&1`], { cwd: real, env: { ...env, HOME: real }, encoding: "utf8" }).stdout;
      const ours = await runtime.exec(step, { env });
      if (compare) expect({ step, output: ours.output }).toEqual({ step, output: expected });
    };
    for (const step of GIT_STEPS) await both(step);
    for (const [line, option] of UNSUPPORTED) {
      const ours = await runtime.exec(line, { env });
      expect({ line, exitCode: ours.exitCode }).toEqual({ line, exitCode: expect.any(Number) });
      expect(ours.exitCode, line).toBeGreaterThan(0);
      expect(ours.output, line).toContain(option);
    }
    // The merge, made by the machine's git, is copied into the workspace's repository.
    spawnSync("bash", ["-c", MERGE], { cwd: real, env: { ...env, HOME: real } });
    const objects = spawnSync("bash", ["-c", "find .git/objects -type f; echo .git/refs/heads/main"], { cwd: real, encoding: "utf8" }).stdout.trim().split("\n");
    const { readFileSync } = await import("node:fs");
    for (const file of objects) await files.writeFile(file, new Uint8Array(readFileSync(path.join(real, file))));
    for (const step of ["git log --graph --oneline", "git log --graph --all --oneline --decorate", "git log --graph", "git log --all --oneline", "git log --graph --oneline -n 2"]) await both(step);
    // The merge is there, drawn as git draws it.
    expect((await runtime.exec("git log --graph --oneline -n 3", { env })).output).toMatch(/^\* {3}[0-9a-f]{7} Merge feature\n\|\\ {2}\n/);
  }, 30_000);
});

describe.skipIf(!HAS_NPM)("npm scripts run their commands: exit codes as npm's", () => {
  const files = {
    "package.json": JSON.stringify({ name: "demo", version: "1.0.0", scripts: { build: "tsc -b && vite build", test: "echo testing; exit 3", lint: "eslint ." } }),
    "index.html": "<h1>app</h1>",
  };
  for (const line of ["npm run build", "npm test", "npm run lint", "node --no-such-flag x.js"]) {
    it(`${line}: the same exit code as the machine's, and no success where it fails`, async () => {
      // A PATH without the machine's own tsc, vite or eslint, as a fresh project has.
      const real = realRun(realFolder(files), line, { PATH: `${path.dirname(process.execPath)}:/usr/bin:/bin` });
      const ours = await (await browserRuntime(files)).exec(line);
      expect(ours.exitCode, ours.output).toBe(real.exitCode);
      expect(ours.exitCode).not.toBe(0);
      expect(ours.output).not.toContain("served by the browser runtime's built-in preview");
    });
  }
});

describe("uncaught errors of the runtime's own classes name them as Node does", () => {
  const PROGRAMS: Record<string, string> = {
    "a missing file": "require('fs').readFileSync('nope.txt');",
    "a symbolic link": "require('fs').symlinkSync('a.txt', 'link');",
  };
  for (const [name, code] of Object.entries(PROGRAMS)) {
    it(name, async () => {
      const real = realNode(realFolder({ "main.js": code, "a.txt": "a" }), ["main.js"]);
      const ours = await runNodeInProcess(["main.js"], { "main.js": code, "a.txt": "a" });
      // The error's header line ("Error: ENOENT: …", "Error [ERR_…]: …") and its own properties.
      const shown = (stderr: string) => stderr.split("\n").filter((line) => /^\w+( \[\w+\])?: /.test(line) || /^ {2}(errno|code|syscall|path|dest): /.test(line));
      if (name === "a symbolic link") {
        // Node makes the link; the browser runtime refuses it as not supported, printed as Node prints fs errors.
        expect(shown(ours.stderr)).toEqual(["Error: ENOTSUP: operation not supported, symlink 'a.txt' -> 'link'", "  errno: -95,", "  code: 'ENOTSUP',", "  syscall: 'symlink',", "  path: 'a.txt',", "  dest: 'link'"]);
        expect(ours.exitCode).toBe(1);
      } else {
        expect(shown(ours.stderr)).toEqual(shown(real.stderr));
        expect(ours.exitCode).toBe(real.exitCode);
      }
    });
  }
});
