// Real tools on the browser runtime's node, compared with this machine's Node (issue 29, point 3):
// the packages are the repository's own installed ones (test/support/installed-packages.ts), copied
// into the test workspace's node_modules, so nothing touches the network. Each case runs the same
// command in both, in-process for ours, and compares stdout, stderr, the exit code and the files
// the tool left in the workspace. ESLint with a flat config (a violation, a clean file, --fix,
// the JSON formatter), minimist and picocolors through a script, Prettier's CLI (--check, --write),
// fs-extra, cross-env.
import { spawnSync } from "node:child_process";
import { chmodSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { WorkspaceFiles } from "../../src/runtime";
import { createBrowserRuntime } from "../../src/runtime/browser";
import { SandboxHost } from "../../src/runtime/sandbox";
import { openStorage } from "../../src/storage";
import { inProcessNodeEndpoint } from "../support/in-process-endpoint";
import { installedPackageFiles } from "../support/installed-packages";
import { both, realFolder, removeRealRunFolders, type Outcome } from "../support/real-tools";

afterAll(removeRealRunFolders);

const ESLINT = installedPackageFiles(["eslint"]);
const ESLINT_CONFIG = `module.exports = [\n  {\n    files: ["**/*.js"],\n    rules: { "no-unused-vars": "error", semi: ["error", "always"], "prefer-const": "warn" },\n  },\n];\n`;
const eslintProject = (sources: Record<string, string>) => ({ ...ESLINT, "eslint.config.js": ESLINT_CONFIG, ...sources });

describe("ESLint (the repository's, 10.x) with a flat config", () => {
  it("a file with violations: the same report (stylish), exit 1, and --fix writes the same file", async () => {
    const files = eslintProject({ "src/bad.js": "let unused = 1\nlet kept = 2;\nconsole.log(kept)\n" });
    const check = await both(["node_modules/eslint/bin/eslint.js", "src/bad.js"], files);
    expect(check.theirs.exitCode).toBe(1);
    expect(check.theirs.stdout).toContain("no-unused-vars");
    expect(check.mine).toEqual(check.theirs);

    const fix = await both(["node_modules/eslint/bin/eslint.js", "--fix", "src/bad.js"], files);
    expect(fix.theirs.files["src/bad.js"]).toBe("const unused = 1;\nconst kept = 2;\nconsole.log(kept);\n");
    expect(fix.mine).toEqual(fix.theirs);
  }, 60_000);

  it("--concurrency 2 lints on two worker threads (their options module is a data: URL import): the same report", async () => {
    const files = eslintProject({ "src/a.js": "let unused = 1\n", "src/b.js": "const k = 2;\nconsole.log(k)\n", "src/c.js": "var x = 1;\nconsole.log(x);\n" });
    const run = await both(["node_modules/eslint/bin/eslint.js", "--concurrency", "2", "src"], files);
    expect(run.theirs.exitCode).toBe(1);
    expect(run.theirs.stdout).toContain("src/a.js");
    // ESLint warns "ESLintPoorConcurrencyWarning" when the threads' start cost more than they saved: a matter of timing on either side.
    const timing = (result: typeof run.mine) => ({ ...result, stderr: result.stderr.replace(/^\(node:\d+\) ESLintPoorConcurrencyWarning.*\n(\(Use `node --trace-warnings.*\n)?/m, "") });
    expect(timing(run.mine)).toEqual(timing(run.theirs));
  }, 60_000);

  it("a clean file: no output, exit 0; JSON formatter the same", async () => {
    const files = eslintProject({ "src/good.js": "const kept = 2;\nconsole.log(kept);\n" });
    const clean = await both(["node_modules/eslint/bin/eslint.js", "src/good.js"], files);
    expect(clean.theirs).toMatchObject({ stdout: "", exitCode: 0 });
    expect(clean.mine).toEqual(clean.theirs);

    const json = await both(["node_modules/eslint/bin/eslint.js", "--format", "json", "src/good.js", "src/bad.js"], { ...files, "src/bad.js": "var x = 1\n" });
    expect(json.theirs.exitCode).toBe(1);
    expect(JSON.parse(json.theirs.stdout)).toHaveLength(2);
    expect(json.mine).toEqual(json.theirs);
  }, 60_000);
});

const ARGS_SCRIPT = `const parse = require("minimist");
const pc = require("picocolors");
const argv = parse(process.argv.slice(2), { boolean: ["verbose"], string: ["name"], alias: { n: "name", v: "verbose" }, default: { level: 3 } });
console.log(JSON.stringify(argv));
console.log(pc.isColorSupported, JSON.stringify(pc.red("red") + pc.bold(pc.green("bold green")) + pc.dim("dim")));
const plain = pc.createColors(false);
console.log(plain.blue("plain"), Object.keys(pc).sort().join(","));
console.dir({ n: 1, s: "s", t: true });
require("fs").writeFileSync("argv.json", JSON.stringify(argv, null, 2) + "\\n");
process.exitCode = argv._.length;
`;

describe("minimist and picocolors through a script", () => {
  const files = { ...installedPackageFiles(["minimist", "picocolors"]), "args.js": ARGS_SCRIPT };
  for (const [label, env] of [
    ["colours forced", { FORCE_COLOR: "1" }],
    ["colours off", { NO_COLOR: "1" }],
  ] as const) {
    it(`parses options, aliases, defaults and --, colours the same (${label}), writes the same file`, async () => {
      const run = await both(["args.js", "-n", "x", "-v", "--level=5", "rest", "--", "--not-an-option"], files, env);
      expect(run.theirs.exitCode).toBe(2);
      expect(run.theirs.files["argv.json"]).toContain('"name": "x"');
      expect(run.mine).toEqual(run.theirs);
    }, 30_000);
  }
});

const PRETTIER = installedPackageFiles(["prettier"]);
const UNFORMATTED = {
  ".prettierrc.json": '{ "semi": false, "singleQuote": true }\n',
  ".prettierignore": "node_modules\n",
  "src/a.js": 'const a = {b:1,\n  c: "two"};\nfunction f(x){return x*2}\n',
  "src/b.ts": "export const sum = (a: number, b: number): number => { return a+b }\n",
  "src/ok.js": "export const ok = 'yes'\n",
  "data.json": '{"a":[1,2,3],"b":{"c":true}}\n',
};

describe("Prettier's CLI", () => {
  it("--check lists the unformatted files with exit 1, --write rewrites them the same, then --check passes", async () => {
    const files = { ...PRETTIER, ...UNFORMATTED };
    const check = await both(["node_modules/prettier/bin/prettier.cjs", "--check", "."], files);
    expect(check.theirs.exitCode).toBe(1);
    expect(check.theirs.stderr).toContain("src/a.js");
    expect(check.mine).toEqual(check.theirs);

    const write = await both(["node_modules/prettier/bin/prettier.cjs", "--write", "."], files);
    expect(write.theirs.files["src/a.js"]).toBe("const a = { b: 1, c: 'two' }\nfunction f(x) {\n  return x * 2\n}\n");
    // --write prints how long each file took: the times differ, the rest is compared.
    const timeless = (run: Outcome) => ({ ...run, stdout: run.stdout.replace(/ \d+ms/g, " <t>ms") });
    expect(write.theirs.stdout).toMatch(/^src\/a\.js \d+ms$/m);
    expect(timeless(write.mine)).toEqual(timeless(write.theirs));

    const again = await both(["node_modules/prettier/bin/prettier.cjs", "--check", "."], { ...PRETTIER, ...write.theirs.files });
    expect(again.theirs.exitCode).toBe(0);
    expect(again.mine).toEqual(again.theirs);
  }, 90_000);
});

const FS_EXTRA_SCRIPT = `const fse = require("fs-extra");
(async () => {
  await fse.outputJson("out/deep/data.json", { a: 1, list: [1, 2] }, { spaces: 2 });
  await fse.copy("src", "copy/src");
  await fse.move("copy/src/one.txt", "moved/one.txt");
  fse.ensureFileSync("made/empty.txt");
  await fse.remove("src/gone");
  console.log(await fse.readJson("out/deep/data.json"), await fse.pathExists("src/gone"), fse.existsSync("moved/one.txt"));
  try { await fse.move("moved/one.txt", "src/two.txt"); } catch (e) { console.log("move refused:", e.message.replace(process.cwd(), "<cwd>")); }
  try { await fse.readJson("missing.json"); } catch (e) { console.log(e.code); }
})();
`;

describe("fs-extra", () => {
  it("outputJson, copy, move, ensureFile, remove and their errors leave the same files and print the same", async () => {
    const files = { ...installedPackageFiles(["fs-extra"]), "main.js": FS_EXTRA_SCRIPT, "src/one.txt": "one\n", "src/two.txt": "two\n", "src/gone/x.txt": "x\n" };
    const run = await both(["main.js"], files);
    expect(run.theirs.files["moved/one.txt"]).toBe("one\n");
    expect(run.theirs.files["copy/src/gone/x.txt"]).toBe("x\n");
    expect(run.mine).toEqual(run.theirs);
  }, 30_000);
});

// npm's .bin entry as the browser runtime's npm writes it (a shell script; it has no symlinks), and
// as the machine's npm runs it too.
const CROSS_ENV_BIN = '#!/bin/sh\nnode "$(dirname "$0")/../cross-env/dist/bin/cross-env.js" "$@"\n';

describe("cross-env through npm scripts", () => {
  it("npm test runs cross-env FOO=1 node -e …: the variables reach the child, its exit code is npm's", async () => {
    const manifest = {
      name: "app",
      version: "1.0.0",
      scripts: {
        test: "cross-env FOO=1 BAR=\"two words\" node -e \"console.log(process.env.FOO, process.env.BAR); process.exit(Number(process.env.FOO) + 2)\"",
        ok: "cross-env GREETING=hi node -e \"console.log(process.env.GREETING)\"",
      },
    };
    const files: Record<string, string> = { ...installedPackageFiles(["cross-env"]), "node_modules/.bin/cross-env": CROSS_ENV_BIN, "package.json": JSON.stringify(manifest, null, 2) };

    const dir = realFolder(files);
    chmodSync(path.join(dir, "node_modules/.bin/cross-env"), 0o755);
    const npm = (script: string) => spawnSync("npm", ["run", "--silent", script], { cwd: dir, encoding: "utf8", timeout: 30_000, env: { PATH: process.env.PATH ?? "", HOME: dir } });

    const storage = await openStorage({ name: `real-tools-cross-env-${Date.now()}` });
    const workspace = await WorkspaceFiles.open(storage, "ws");
    for (const [file, text] of Object.entries(files)) await workspace.writeFile(file, text);
    const runtime = createBrowserRuntime(workspace, { node: new SandboxHost(inProcessNodeEndpoint, { keepSpare: false }) });

    for (const script of ["test", "ok"]) {
      const theirs = npm(script);
      const mine = await runtime.exec(`npm run --silent ${script}`);
      expect(theirs.stderr).toBe("");
      expect({ output: mine.output, exitCode: mine.exitCode }).toEqual({ output: theirs.stdout, exitCode: theirs.status });
    }
    expect(npm("test").stdout).toBe("1 two words\n");
  }, 60_000);
});
