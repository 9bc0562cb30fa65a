// `npm test`: type check, lint, unit tests, build, browser tests. Ends with one plain line
// "N passed, N failed" counting every unit and browser test plus the type check and lint.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import semver from "semver";

/**
 * package.json's engines are the Node versions every dependency accepts (ai v7 and the @ai-sdk
 * packages want >=22, eslint's ^22.13 or >=24, vitest 5 and pep440 exclude 25 and 26). The
 * suite also runs on Node 20.19+ (this project's CI does, and passes): outside the range it says so
 * in one line and goes on, rather than failing or hiding npm's EBADENGINE warnings.
 */
function checkEngines() {
  const wanted = JSON.parse(readFileSync("package.json", "utf8")).engines?.node;
  if (!wanted || semver.satisfies(process.version, wanted)) return;
  const where = semver.ltr(process.version, wanted) ? "below" : "outside";
  console.log(`Note: Node ${process.version} is ${where} the engines package.json declares (${wanted}, what the dependencies ask for); the tests run anyway.`);
}
checkEngines();

const outDir = "test-results";
mkdirSync(outDir, { recursive: true });
const only = process.argv.slice(2);
let passed = 0;
let failed = 0;
/** What failed, repeated just above the last line: CI keeps only the tail of the output. */
const failures = [];

function run(label, command, args) {
  console.log(`\n▶ ${label}: ${command} ${args.join(" ")}`);
  const result = spawnSync(command, args, { stdio: "inherit", env: process.env });
  return result.status === 0;
}

function check(label, command, args) {
  if (only.length && !only.includes(label)) return;
  if (run(label, command, args)) passed++;
  else {
    failed++;
    failures.push(label);
    console.log(`✗ ${label} failed`);
  }
}

function vitest(label, project, jsonFile) {
  if (only.length && !only.includes(label)) return;
  rmSync(jsonFile, { force: true });
  const args = ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${jsonFile}`];
  args.push("--project", project);
  const ok = run(label, "npx", args);
  if (!existsSync(jsonFile)) {
    failed++;
    failures.push(`${label}: no results were written (the runner crashed)`);
    console.log(`✗ ${label}: no results were written (the runner crashed)`);
    return;
  }
  const report = JSON.parse(readFileSync(jsonFile, "utf8"));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  // Suites that fail to load count as a failure even when no test inside them ran.
  const brokenSuites = report.testResults.filter((s) => s.status === "failed" && s.assertionResults.length === 0).length;
  failed += brokenSuites;
  for (const suite of report.testResults) {
    const file = suite.name.replace(`${process.cwd()}/`, "");
    for (const test of suite.assertionResults) {
      if (test.status === "failed") failures.push(`${label}: ${file} > ${test.fullName}\n    ${firstLine(test.failureMessages)}`);
    }
    if (suite.status === "failed" && suite.assertionResults.length === 0) failures.push(`${label}: ${file} did not load\n    ${firstLine([suite.message])}`);
    else if (suite.status === "failed" && suite.message) failures.push(`${label}: ${file} failed outside its tests\n    ${firstLine([suite.message])}`);
  }
  if (!ok && report.numFailedTests === 0 && brokenSuites === 0) {
    failed++;
    failures.push(`${label}: the runner exited with an error`);
  }
}

function firstLine(messages) {
  const text = (messages ?? []).join("\n").trim();
  return (text.split("\n")[0] ?? "").slice(0, 1000);
}

/**
 * The browser tests drive Debian's Chromium. On a fresh machine it is installed here when we may
 * (root with apt-get); otherwise the run stops at once with the one command to run.
 */
function ensureChromium() {
  if (existsSync(CHROMIUM)) return true;
  const root = typeof process.getuid === "function" && process.getuid() === 0;
  const hasApt = spawnSync("sh", ["-c", "command -v apt-get"], { stdio: "ignore" }).status === 0;
  if (root && hasApt) {
    console.log(`\n▶ ${CHROMIUM} is missing: installing Debian's chromium (apt-get install -y chromium)`);
    spawnSync("apt-get", ["update", "-qq"], { stdio: "inherit" });
    spawnSync("apt-get", ["install", "-y", "-qq", "chromium"], { stdio: "inherit" });
    if (existsSync(CHROMIUM)) return true;
  }
  console.error(`\nThe browser tests need Chromium at ${CHROMIUM}. Install it, then run npm test again:\n\n  sudo apt-get install -y chromium\n`);
  return false;
}

/**
 * The browser tests' fake registry serves the WebAssembly builds of native packages (Rolldown's,
 * Lightning CSS's), which npm installs only for `--cpu=wasm32`, so they are not in the root
 * node_modules: test/fixtures/wasm-builds holds them. Installed when missing or when its lockfile
 * changed since (the lockfile's text is kept beside the install), as Chromium is when missing.
 */
function ensureWasmBuilds() {
  const folder = "test/fixtures/wasm-builds";
  const lock = readFileSync(`${folder}/package-lock.json`, "utf8");
  const stamp = `${folder}/node_modules/.webcode-installed-lock.json`;
  if (existsSync(stamp) && readFileSync(stamp, "utf8") === lock) return true;
  const ok = run("wasm builds", "npm", WASM_BUILDS_INSTALL.split(" ").slice(1));
  if (ok) writeFileSync(stamp, lock);
  else console.error(`\nThe browser tests need the packages of ${folder}. Install them, then run npm test again:\n\n  ${WASM_BUILDS_INSTALL}\n`);
  return ok;
}

const WASM_BUILDS_INSTALL = "npm ci --prefix test/fixtures/wasm-builds --cpu=wasm32 --no-audit --no-fund";
const CHROMIUM = "/usr/bin/chromium";
const wantsBrowser = !only.length || only.includes("e2e");
if (wantsBrowser && !(ensureChromium() && ensureWasmBuilds())) {
  console.log("\n0 passed, 1 failed");
  process.exit(1);
}

check("typecheck", "npm", ["run", "--silent", "typecheck"]);
check("lint", "npm", ["run", "--silent", "lint"]);
vitest("unit", "unit", `${outDir}/unit.json`);
if (wantsBrowser) {
  // The real app must build; the browser tests drive its e2e build (a fake WebContainer API only).
  if (run("build", "npm", ["run", "--silent", "build"]) && run("build (e2e)", "npm", ["run", "--silent", "build:e2e"])) {
    vitest("e2e", "e2e", `${outDir}/e2e.json`);
  } else {
    failed++;
    failures.push("build failed: browser tests not run");
    console.log("✗ build failed: browser tests not run");
  }
}

if (failures.length) console.log(`\nFailed:\n${failures.map((f) => `✗ ${f}`).join("\n")}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
