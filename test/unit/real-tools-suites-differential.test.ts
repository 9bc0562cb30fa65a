// Issue 29 point 3, packages' own test suites in the browser runtime against the machine's Node.
// minimist's `npm test` with its ESLint pretest: its repository's files as its npm tarball ships
// them (index.js, test/*.js, .eslintrc, package.json: the installed copy, node_modules/minimist),
// run by `npm test` in both shells with the real tape (an exact devDependency). Faithful, not
// identical: the lint step is the repository's ESLint 10 with a flat config holding minimist's own
// rule settings from its .eslintrc and core rules of the preset it extends (@ljharb/eslint-config
// needs ESLint 8 and its eslintrc format, which cannot sit beside ESLint 10 here); nyc (coverage)
// and the posttest `aud` (advisories from the registry, over the network) are left out.
//
// nanoid's and picocolors' own test files are not in this repository: their npm tarballs ship no
// tests, and code from the packages' public repositories stays out of this repository's commits.
// Their suites were run by hand against the installed versions (docs/architecture.md has the
// figures); what runs here are suites written for this repository that check what theirs check,
// with their runners: uvu for nanoid (its API, and its CLI through child_process.exec), plain node
// with vm contexts for picocolors (its colour detection per environment, its formats and nesting).
import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { installedPackageFiles } from "../support/installed-packages";
import { binScript, both, removeRealRunFolders, shellBoth } from "../support/real-tools";

afterAll(removeRealRunFolders);

/** A folder's files, every kind, keyed relative to it (dot files included). */
function folderFiles(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (sub: string) => {
    for (const entry of readdirSync(path.join(dir, sub))) {
      const relative = sub ? `${sub}/${entry}` : entry;
      if (statSync(path.join(dir, relative)).isDirectory()) walk(relative);
      else out[relative] = readFileSync(path.join(dir, relative), "utf8");
    }
  };
  walk("");
  return out;
}

// minimist's .eslintrc rules (its own settings) and, from the preset it extends, the core rules its
// code is written to (strict mode, ===, no shadowing, no unused or undefined names).
const MINIMIST_ESLINT_CONFIG = `'use strict';

module.exports = [
	{ ignores: ['coverage/', 'node_modules/'] },
	{
		files: ['**/*.js', '**/*.mjs'],
		languageOptions: {
			ecmaVersion: 5,
			sourceType: 'script',
			globals: { require: 'readonly', module: 'writable', process: 'readonly', console: 'readonly' },
		},
		rules: {
			complexity: 0,
			'func-style': [2, 'declaration'],
			'max-lines-per-function': 0,
			'max-nested-callbacks': 1,
			'max-statements-per-line': 1,
			'max-statements': 0,
			'multiline-comment-style': 0,
			'no-continue': 1,
			'no-param-reassign': 1,
			'no-restricted-syntax': 1,
			camelcase: 2,
			'consistent-return': 2,
			'dot-notation': 2,
			eqeqeq: [2, 'allow-null'],
			'no-prototype-builtins': 2,
			'no-shadow': 2,
			'no-undef': 2,
			'no-unused-vars': 2,
			'no-use-before-define': [2, { functions: false }],
			strict: [2, 'global'],
		},
	},
	{ files: ['test/**'], rules: { camelcase: 0 } },
];
`;

function minimistProject(): Record<string, string> {
  const repository = folderFiles(path.join(process.cwd(), "node_modules/minimist"));
  const manifest = JSON.parse(repository["package.json"]!) as { scripts: Record<string, string> };
  // Its scripts as they are, less nyc and the posttest (see the header).
  expect(manifest.scripts).toMatchObject({ pretest: "npm run lint", lint: "eslint --ext=js,mjs .", "tests-only": "nyc tape 'test/**/*.js'", test: "npm run tests-only" });
  const scripts = { lint: manifest.scripts.lint, pretest: manifest.scripts.pretest, "tests-only": "tape 'test/**/*.js'", test: manifest.scripts.test };
  return {
    ...repository,
    "package.json": JSON.stringify({ ...manifest, scripts }, null, 2),
    "eslint.config.js": MINIMIST_ESLINT_CONFIG,
    ...installedPackageFiles(["tape", "eslint"]),
    // tape's bin has no extension, so installedPackageFiles (JavaScript and JSON by name) leaves it out.
    "node_modules/tape/bin/tape": readFileSync(path.join(process.cwd(), "node_modules/tape/bin/tape"), "utf8"),
    "node_modules/.bin/tape": binScript("tape/bin/tape"),
    "node_modules/.bin/eslint": binScript("eslint/bin/eslint.js"),
  };
}

describe("minimist's npm test (ESLint pretest, then its tape suite)", () => {
  const project = minimistProject();

  it("passes the same way: the lint's warnings, every TAP line, exit 0", async () => {
    const run = await shellBoth("npm test", project);
    expect(run.theirs.exitCode).toBe(0);
    expect(run.theirs.output).toMatch(/# pass {2}\d{3}\n\n# ok\n/);
    expect(run.theirs.output).toContain("max-statements-per-line");
    expect(run.mine).toEqual(run.theirs);
  }, 90_000);

  it("a lint error: the pretest fails the same way and the suite does not run", async () => {
    const unlinted = { ...project, "index.js": project["index.js"]!.replace("'use strict';\n", "'use strict';\n\nvar unused = 1;\n") };
    expect(unlinted["index.js"]).not.toBe(project["index.js"]);
    const run = await shellBoth("npm test", unlinted);
    expect(run.theirs.exitCode).toBe(1);
    expect(run.theirs.output).toContain("'unused' is assigned a value but never used");
    expect(run.theirs.output).not.toContain("TAP version");
    // Known difference: the browser runtime's npm is npm 10's (Node 22.12 ships 10.9), which ends a
    // failed script with an "npm error Lifecycle script … failed" block; this machine's npm 11 prints none.
    expect(run.mine.output).toContain("npm error Lifecycle script `lint` failed with error:\nnpm error code 1\n");
    const npm11 = (output: string) => output.replace(/^npm error .*\n/gm, "");
    expect({ ...run.mine, output: npm11(run.mine.output) }).toEqual(run.theirs);
  }, 60_000);

  it("a failing assertion: tape's same TAP report (stack frames aside) and exit code 1", async () => {
    const broken = { ...project, "test/whitespace.js": project["test/whitespace.js"]!.replace("t.equal(x, '\\t');", "t.equal(x, ' ');") };
    expect(broken["test/whitespace.js"]).not.toBe(project["test/whitespace.js"]);
    const run = await shellBoth("npm run --silent tests-only", broken);
    // The frames of the stack tape prints are each engine's own (timers, Immediate); tape's "at:" line stays.
    const frameless = (output: string) => output.replace(/^ +at \S.*\n/gm, "");
    expect(run.theirs.exitCode).toBe(1);
    expect(run.theirs.output).toContain("not ok 153 should be strictly equal\n  ---\n    operator: equal\n    expected: ' '\n    actual:   '\\t'\n    at: Test.<anonymous> (/workspace/test/whitespace.js:9:4)\n");
    expect(run.theirs.output).toMatch(/# pass {2}152\n# fail {2}1\n/);
    // Known difference: a module's code is compiled by eval here (there is no vm.compileFunction in
    // a browser), and V8 names an anonymous function in eval'd code "eval" in its stack frames, so
    // tape's "at:" says Test.eval where Node's says Test.<anonymous>. The file, line and column match.
    expect(run.mine.output).toContain("    at: Test.eval (/workspace/test/whitespace.js:9:4)\n");
    const named = (output: string) => output.replace("    at: Test.eval (", "    at: Test.<anonymous> (");
    expect({ ...run.mine, output: named(frameless(run.mine.output)) }).toEqual({ ...run.theirs, output: frameless(run.theirs.output) });
  }, 60_000);
});

// Run by uvu as nanoid's suite is (`uvu . .test.cjs$`): the API of nanoid 3 (the installed one) and
// its CLI through an awaited child_process.exec, as its own CLI tests do.
const NANOID_SUITE = `const { test } = require("uvu");
const assert = require("uvu/assert");
const { promisify } = require("util");
const { exec } = require("child_process");
const { nanoid, customAlphabet, customRandom, random, urlAlphabet } = require("nanoid");
const nonSecure = require("nanoid/non-secure");
const later = require("nanoid/async");

const run = promisify(exec);
// Its package exports no bin path: the file, as npm's .bin entry would run it.
const CLI = "node " + require("path").join(__dirname, "..", "node_modules", "nanoid", "bin", "nanoid.cjs");
const URL_SAFE = /^[A-Za-z0-9_-]+$/;

test("nanoid(): 21 URL-safe characters, all different over 1000 calls", () => {
  const ids = new Set();
  for (let i = 0; i < 1000; i++) {
    const id = nanoid();
    assert.is(id.length, 21);
    assert.match(id, URL_SAFE);
    ids.add(id);
  }
  assert.is(ids.size, 1000);
  assert.is(urlAlphabet.length, 64);
});

test("nanoid(size), a size given as a string, a fractional size that must not pollute the pool", () => {
  assert.is(nanoid(10).length, 10);
  assert.is(nanoid("7").length, 7);
  nanoid(2.1);
  assert.not.equal(nanoid(), nanoid());
});

test("customAlphabet: only its characters, its size, a size per call", () => {
  const hex = customAlphabet("0123456789abcdef", 12);
  for (let i = 0; i < 200; i++) assert.match(hex(), /^[0-9a-f]{12}$/);
  assert.is(hex(5).length, 5);
});

test("customAlphabet spreads evenly over a small alphabet", () => {
  const abcd = customAlphabet("abcd", 10);
  const counts = { a: 0, b: 0, c: 0, d: 0 };
  for (let i = 0; i < 4000; i++) for (const char of abcd()) counts[char]++;
  for (const count of Object.values(counts)) assert.ok(count / 40000 > 0.2 && count / 40000 < 0.3, JSON.stringify(counts));
});

test("customRandom uses the random bytes it is given", () => {
  const fixed = customRandom("abcdef", 5, (size) => new Uint8Array(size).fill(2));
  assert.is(fixed(), "ccccc");
  const sequence = [];
  const counting = customRandom("0123456789", 4, (size) => {
    sequence.push(size);
    return new Uint8Array(size).map((_, i) => i);
  });
  assert.match(counting(), /^[0-9]{4}$/);
  assert.ok(sequence.length >= 1);
});

test("random(n): n random bytes", () => {
  const bytes = random(64);
  assert.is(bytes.length, 64);
  assert.ok(bytes.some((b) => b !== 0));
});

test("nanoid/non-secure and nanoid/async", async () => {
  assert.match(nonSecure.nanoid(), /^[A-Za-z0-9_-]{21}$/);
  assert.match(nonSecure.customAlphabet("xyz", 6)(), /^[xyz]{6}$/);
  assert.match(await later.nanoid(), /^[A-Za-z0-9_-]{21}$/);
  assert.match(await later.customAlphabet("01", 8)(), /^[01]{8}$/);
});

test("CLI: prints an ID", async () => {
  const { stdout, stderr } = await run(CLI);
  assert.is(stderr, "");
  assert.match(stdout, /^[A-Za-z0-9_-]{21}\\n$/);
});

test("CLI: --size and --alphabet", async () => {
  assert.match((await run(CLI + " --size 10")).stdout, /^[A-Za-z0-9_-]{10}\\n$/);
  assert.match((await run(CLI + " -a abc -s 15")).stdout, /^[abc]{15}\\n$/);
});

test("CLI: --help shows the usage", async () => {
  const { stdout, stderr } = await run(CLI + " --help");
  assert.is(stderr, "");
  assert.match(stdout, /\\$ nanoid \\[options]/);
});

test("CLI: an unknown argument and a size that is no positive number fail with exit 1", async () => {
  for (const [args, message] of [[" -test", "Unknown argument -test"], [" -s abc", "Size must be positive integer"], [' --size "-1"', "Size must be positive integer"]]) {
    const failure = await run(CLI + args).then(() => undefined, (error) => error);
    assert.ok(failure, "nanoid" + args + " should fail");
    assert.is(failure.code, 1);
    assert.is(failure.stderr, message + "\\n");
  }
});

test.run();
`;

describe("nanoid (API and CLI) under uvu", () => {
  it("the same uvu report (counts and output, durations aside) and exit code as in Node", async () => {
    const files = {
      ...installedPackageFiles(["nanoid", "uvu"]),
      "package.json": JSON.stringify({ name: "ids", version: "1.0.0", private: true, scripts: { test: "uvu . .test.cjs$" } }, null, 2),
      "test/nanoid.test.cjs": NANOID_SUITE,
      "node_modules/.bin/uvu": binScript("uvu/bin.js"),
    };
    const run = await shellBoth("npm test --silent", files);
    const timeless = (output: string) => output.replace(/Duration: +[\d.]+ms/g, "Duration: <t>ms");
    // uvu's summary, its colours left out.
    const counts = (output: string) => output.replace(/\u001b\[\d+m/g, "").match(/Total: +(\d+)\s+Passed: +(\d+)\s+Skipped: +(\d+)/)?.slice(1).map(Number);
    expect(counts(run.theirs.output)).toEqual([11, 11, 0]);
    expect(run.theirs.exitCode).toBe(0);
    expect({ ...run.mine, output: timeless(run.mine.output) }).toEqual({ ...run.theirs, output: timeless(run.theirs.output) });

    // A failing test: uvu counts it and the run ends with 1, in both.
    const failing = { ...files, "test/nanoid.test.cjs": NANOID_SUITE.replace("assert.is(nanoid(10).length, 10);", "assert.is(nanoid(10).length, 11);") };
    const failed = await shellBoth("npm test --silent", failing);
    expect(counts(failed.theirs.output)).toEqual([11, 10, 0]);
    expect(failed.theirs.exitCode).toBe(1);
    expect({ counts: counts(failed.mine.output), exitCode: failed.mine.exitCode }).toEqual({ counts: counts(failed.theirs.output), exitCode: 1 });
  }, 90_000);
});

// picocolors decides on colours once, from the process it loads in; its own suite loads its source
// in vm contexts with made-up processes. This does the same for each environment it tells apart,
// then prints every format and the nesting cases (a close code inside a colour reopens it).
const PICOCOLORS_SUITE = `const vm = require("vm");
const fs = require("fs");
const pc = require("picocolors");
const source = fs.readFileSync(require.resolve("picocolors"), "utf8");

function loadIn({ env, argv = [], platform = "linux", stdout = { isTTY: false } }) {
  const context = vm.createContext({ require, process: { env, argv, platform, stdout }, module: { exports: {} } });
  new vm.Script(source, { filename: "picocolors.js" }).runInContext(context);
  return context.module.exports;
}

const environments = {
  "CI": { env: { TERM: "dumb", CI: "1" } },
  "--color": { env: { TERM: "dumb" }, argv: ["--color"] },
  "NO_COLOR over FORCE_COLOR": { env: { FORCE_COLOR: "1", NO_COLOR: "1" } },
  "empty NO_COLOR": { env: { NO_COLOR: "", CI: "1" } },
  "FORCE_COLOR": { env: { TERM: "dumb", FORCE_COLOR: "1" } },
  "--no-color": { env: { FORCE_COLOR: "1" }, argv: ["--no-color"] },
  "dumb terminal": { env: { TERM: "dumb" } },
  "a terminal": { env: { TERM: "xterm-256color" }, stdout: { isTTY: true } },
  "windows": { env: { TERM: "dumb" }, platform: "win32" },
};
for (const [name, environment] of Object.entries(environments)) {
  const loaded = loadIn(environment);
  console.log(name, loaded.isColorSupported, JSON.stringify(loaded.red("text")), loaded.red("text") === loaded.createColors(loaded.isColorSupported).red("text"));
}

const c = pc.createColors(true);
for (const name of Object.keys(c).sort()) if (typeof c[name] === "function" && name !== "createColors") console.log(name, JSON.stringify(c[name]("x")));
console.log(JSON.stringify([
  c.bold("BOLD " + c.red("RED " + c.dim("DIM") + " RED") + " BOLD"),
  c.red(c.bold("==TEST==")),
  c.bold(c.yellow(c.bgRed(c.italic("==TEST==")))),
  c.red("foo " + c.yellow("bar") + " baz"),
  c.yellow("foo " + c.red(c.bold("red")) + " bar " + c.cyan("cyan") + " baz"),
  [undefined, 0, NaN, null, true, false, Infinity].map((value) => c.red(value)),
  pc.createColors(false).red("plain"),
]));
console.log(c.red(c.blue("x").repeat(10000)).length, pc.isColorSupported);
`;

describe("picocolors: colour detection in vm contexts, formats, nesting", () => {
  it("prints the same as in Node", async () => {
    const run = await both(["colors.js"], { ...installedPackageFiles(["picocolors"]), "colors.js": PICOCOLORS_SUITE });
    expect(run.theirs.exitCode).toBe(0);
    expect(run.theirs.stdout).toContain("NO_COLOR over FORCE_COLOR false");
    expect(run.theirs.stdout).toContain('windows true "\\u001b[31mtext\\u001b[39m" true');
    expect(run.mine).toEqual(run.theirs);
  }, 30_000);
});
