// Issue 29 point 3, packages' own test suites in the browser runtime against the machine's Node.
// minimist's `npm test` with its ESLint pretest: its repository's files as its npm tarball ships
// them (index.js, test/*.js, .eslintrc, package.json: the installed copy, node_modules/minimist),
// run by `npm test` in both shells with the real tape (an exact devDependency). Faithful, not
// identical: the lint step is the repository's ESLint 10 with a flat config holding minimist's own
// rule settings from its .eslintrc and core rules of the preset it extends (@ljharb/eslint-config
// needs ESLint 8 and its eslintrc format, which cannot sit beside ESLint 10 here); nyc (coverage)
// and the posttest `aud` (advisories from the registry, over the network) are left out.
import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { installedPackageFiles } from "../support/installed-packages";
import { binScript, removeRealRunFolders, shellBoth } from "../support/real-tools";

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
