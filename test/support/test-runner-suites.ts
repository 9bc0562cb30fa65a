// Realistic test suites for the test-runner benchmark and tests (issue 29 point 5): a mocha suite and
// a node:test suite of FILES files × TESTS tests each (assert, some async, a few hooks), and a
// 6-test pytest file. Each is a map of workspace-relative paths to contents, written the same to a
// temporary folder for the machine's Node/CPython and into the browser runtime's workspace.

export const SUITE_FILES = 10;
export const SUITE_TESTS = 20;

/** The code under test: small functions a real project's tests would exercise. */
const LIBRARY = `"use strict";
function slugify(text) {
  return String(text).toLowerCase().trim().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
}
function chunk(items, size) {
  const out = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
function parseQuery(query) {
  const out = {};
  for (const part of query.replace(/^\\?/, "").split("&")) {
    if (!part) continue;
    const [key, value = ""] = part.split("=");
    out[decodeURIComponent(key)] = decodeURIComponent(value);
  }
  return out;
}
function delay(ms, value) {
  return new Promise((resolve) => setTimeout(() => resolve(value), ms));
}
class Stack {
  constructor() { this.items = []; }
  push(x) { this.items.push(x); return this; }
  pop() { if (!this.items.length) throw new RangeError("empty stack"); return this.items.pop(); }
  get size() { return this.items.length; }
}
module.exports = { slugify, chunk, parseQuery, delay, Stack };
`;

/** The body of test number `t` of file `f`: one of a few shapes, an async one every fifth. */
function testBody(f: number, t: number): { title: string; async: boolean; body: string } {
  const n = f * 100 + t;
  switch (t % 5) {
    case 0:
      return { title: `resolves delayed value ${n}`, async: true, body: `const value = await delay(1, ${n});\n    assert.strictEqual(value, ${n});` };
    case 1:
      return { title: `slugifies title ${n}`, async: false, body: `assert.strictEqual(slugify("  Hello World ${n}!  "), "hello-world-${n}");` };
    case 2:
      return { title: `chunks ${n} items`, async: false, body: `const parts = chunk(Array.from({ length: ${n % 50 + 10} }, (_, i) => i), 7);\n    assert.deepStrictEqual(parts[0], [0, 1, 2, 3, 4, 5, 6]);\n    assert.strictEqual(parts.flat().length, ${n % 50 + 10});` };
    case 3:
      return { title: `parses query ${n}`, async: false, body: `assert.deepStrictEqual(parseQuery("?a=${n}&b=x%20y&c"), { a: "${n}", b: "x y", c: "" });` };
    default:
      return { title: `stack ${n} throws when empty`, async: false, body: `const stack = new Stack().push(${n});\n    assert.strictEqual(stack.pop(), ${n});\n    assert.throws(() => stack.pop(), RangeError);` };
  }
}

function suiteFile(f: number, header: string): string {
  const lines = [header, `const { slugify, chunk, parseQuery, delay, Stack } = require("../lib/util.js");`, ""];
  lines.push(`describe("module ${f}", () => {`);
  lines.push(`  let calls = 0;`);
  lines.push(`  beforeEach(() => { calls += 1; });`);
  for (let group = 0; group < 2; group++) {
    lines.push(`  describe("group ${group}", () => {`);
    for (let t = group * (SUITE_TESTS / 2); t < (group + 1) * (SUITE_TESTS / 2); t++) {
      const test = testBody(f, t);
      lines.push(`    it(${JSON.stringify(test.title)}, ${test.async ? "async " : ""}() => {`, `    ${test.body}`, `    });`);
    }
    lines.push(`  });`);
  }
  lines.push(`  after(() => { assert.strictEqual(calls, ${SUITE_TESTS}); });`);
  lines.push(`});`, "");
  return lines.join("\n");
}

/** A mocha project: `npx mocha` (its default spec ./test/*.{js,cjs,mjs}) runs FILES × TESTS tests. */
export function mochaSuite(): Record<string, string> {
  const files: Record<string, string> = {
    "package.json": JSON.stringify({ name: "mocha-bench", version: "1.0.0", private: true, scripts: { test: "mocha" } }, null, 2) + "\n",
    "lib/util.js": LIBRARY,
  };
  for (let f = 0; f < SUITE_FILES; f++) files[`test/module-${f}.spec.js`] = suiteFile(f, `"use strict";\nconst assert = require("node:assert");`);
  return files;
}

/** A node:test project: `node --test` finds test/*.test.js (Node's default patterns). */
export function nodeTestSuite(): Record<string, string> {
  const files: Record<string, string> = {
    "package.json": JSON.stringify({ name: "node-test-bench", version: "1.0.0", private: true }, null, 2) + "\n",
    "lib/util.js": LIBRARY,
  };
  for (let f = 0; f < SUITE_FILES; f++) files[`test/module-${f}.test.js`] = suiteFile(f, `"use strict";\nconst assert = require("node:assert");\nconst { describe, it, beforeEach, after } = require("node:test");`);
  return files;
}

/** A pytest project of one 6-test file (plain asserts, a fixture, parametrize, raises, a class). */
export function pytestSuite(): Record<string, string> {
  return {
    "calc.py": [
      "def add(a, b):",
      "    return a + b",
      "",
      "def divide(a, b):",
      "    if b == 0:",
      "        raise ZeroDivisionError('division by zero')",
      "    return a / b",
      "",
      "def words(text):",
      "    return [w for w in text.split() if w]",
      "",
    ].join("\n"),
    "test_calc.py": [
      "import pytest",
      "from calc import add, divide, words",
      "",
      "@pytest.fixture",
      "def numbers():",
      "    return [1, 2, 3, 4]",
      "",
      "def test_add():",
      "    assert add(2, 3) == 5",
      "",
      "def test_sum_fixture(numbers):",
      "    assert sum(numbers) == 10",
      "",
      "@pytest.mark.parametrize('a,b,expected', [(6, 3, 2.0), (1, 4, 0.25)])",
      "def test_divide(a, b, expected):",
      "    assert divide(a, b) == expected",
      "",
      "def test_divide_by_zero():",
      "    with pytest.raises(ZeroDivisionError):",
      "        divide(1, 0)",
      "",
      "class TestWords:",
      "    def test_split(self):",
      "        assert words(' a  b c ') == ['a', 'b', 'c']",
      "",
    ].join("\n"),
  };
}
