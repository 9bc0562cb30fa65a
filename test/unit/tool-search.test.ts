// glob, grep and list over the real browser runtime: matching, newest first, caps with notes,
// skipped folders, regex errors, include filters and the indented tree.
import { afterEach, describe, expect, it } from "vitest";
import { runTool } from "../../src/agent/tools/wrapper";
import { globTool, GLOB_MAX_RESULTS } from "../../src/agent/tools/glob";
import { grepTool, GREP_MAX_MATCHES } from "../../src/agent/tools/grep";
import { listTool, LIST_MAX_ENTRIES } from "../../src/agent/tools/list";
import { globToRegExp, matchGlob } from "../../src/base";
import { createToolHarness, type ToolHarness } from "../support/tool-context";

let harness: ToolHarness;
afterEach(async () => harness?.dispose());

async function withFiles(files: Record<string, string>, mtimes: Record<string, number> = {}) {
  harness = await createToolHarness({ files });
  for (const [path, mtime] of Object.entries(mtimes)) harness.files.setMtime(path, mtime);
}

describe("glob matcher", () => {
  it("handles *, **, ?, classes and braces", () => {
    expect(matchGlob("*.ts", "src/deep/a.ts")).toBe(true);
    expect(matchGlob("src/*.ts", "src/deep/a.ts")).toBe(false);
    expect(matchGlob("src/**/*.ts", "src/a.ts")).toBe(true);
    expect(matchGlob("src/**/*.ts", "src/x/y/a.ts")).toBe(true);
    expect(matchGlob("**/*.{ts,tsx}", "a/b.tsx")).toBe(true);
    expect(matchGlob("file?.md", "file1.md")).toBe(true);
    expect(matchGlob("[ab].txt", "c.txt")).toBe(false);
    expect(globToRegExp("a.b").test("axb")).toBe(false);
  });
});

describe("glob", () => {
  it("returns matching paths newest first", async () => {
    await withFiles({ "src/old.ts": "", "src/new.ts": "", "src/x.js": "", "test/a.ts": "" }, { "src/old.ts": 1000, "src/new.ts": 3000, "test/a.ts": 2000 });
    const result = await runTool(globTool, { pattern: "**/*.ts" }, harness.context);
    expect(result.output).toBe("src/new.ts\ntest/a.ts\nsrc/old.ts");
    const inSrc = await runTool(globTool, { pattern: "*.ts", path: "src" }, harness.context);
    expect(inSrc.output).toBe("src/new.ts\nsrc/old.ts");
    expect(harness.asks[0]).toMatchObject({ permission: "read", patterns: ["."] });
  });

  it("skips node_modules and .git unless the pattern names them", async () => {
    await withFiles({ "a.js": "", "node_modules/x/index.js": "", ".git/config": "" });
    expect((await runTool(globTool, { pattern: "**/*.js" }, harness.context)).output).toBe("a.js");
    expect((await runTool(globTool, { pattern: "node_modules/**/*.js" }, harness.context)).output).toBe("node_modules/x/index.js");
  });

  it(`caps at ${GLOB_MAX_RESULTS} paths and says so`, async () => {
    const files = Object.fromEntries(Array.from({ length: GLOB_MAX_RESULTS + 5 }, (_, i) => [`f${i}.txt`, ""]));
    await withFiles(files);
    const result = await runTool(globTool, { pattern: "*.txt" }, harness.context);
    expect(result.output.split("\n").filter((l) => l.endsWith(".txt"))).toHaveLength(GLOB_MAX_RESULTS);
    expect(result.output).toContain(`(Showing the ${GLOB_MAX_RESULTS} newest of ${GLOB_MAX_RESULTS + 5} matches.`);
    expect(result.metadata.truncated).toBe(true);
  });

  it("says when nothing matches and when the folder is missing", async () => {
    await withFiles({ "a.txt": "" });
    expect((await runTool(globTool, { pattern: "*.rs" }, harness.context)).output).toBe("No files found.");
    await expect(runTool(globTool, { pattern: "*", path: "nope" }, harness.context)).rejects.toThrow(/Folder not found: nope/);
  });
});

describe("grep", () => {
  it("groups matches by file, newest first, as Line N: text", async () => {
    await withFiles(
      { "src/a.ts": "import x from 'y';\nfunction alpha() {}\n", "src/b.ts": "const z = 1;\nfunction beta() {}\nfunction gamma() {}\n", "README.md": "function in docs" },
      { "src/a.ts": 1000, "src/b.ts": 2000, "README.md": 500 },
    );
    const result = await runTool(grepTool, { pattern: "function\\s+\\w+", include: "*.ts" }, harness.context);
    expect(result.output).toBe("Found 3 matches:\n\nsrc/b.ts:\n  Line 2: function beta() {}\n  Line 3: function gamma() {}\n\nsrc/a.ts:\n  Line 2: function alpha() {}");
  });

  it("reports an invalid regular expression clearly", async () => {
    await withFiles({ "a.txt": "x" });
    await expect(runTool(grepTool, { pattern: "foo(" }, harness.context)).rejects.toThrow(/Invalid regular expression "foo\(": .*Escape special characters/);
  });

  it("accepts (?i) for case-insensitive search and limits to a folder", async () => {
    await withFiles({ "src/a.txt": "Hello\n", "other/b.txt": "hello\n" });
    const result = await runTool(grepTool, { pattern: "(?i)HELLO", path: "src" }, harness.context);
    expect(result.output).toBe("Found 1 match:\n\nsrc/a.txt:\n  Line 1: Hello");
  });

  it(`caps at ${GREP_MAX_MATCHES} matches, cuts long lines and skips binary files`, async () => {
    harness = await createToolHarness({
      files: { "many.txt": Array.from({ length: GREP_MAX_MATCHES + 20 }, () => "hit").join("\n"), "long.txt": `hit${"x".repeat(3000)}`, "bin.dat": new Uint8Array([104, 105, 116, 0, 1]) },
    });
    harness.files.setMtime("long.txt", Date.now() + 10000);
    const result = await runTool(grepTool, { pattern: "hit" }, harness.context);
    expect(result.output).toMatch(new RegExp(`^Found ${GREP_MAX_MATCHES + 21} matches \\(showing the first ${GREP_MAX_MATCHES}\\)`));
    expect(result.output).toContain(`Results are truncated at ${GREP_MAX_MATCHES} matches`);
    expect(result.output).toContain(`Line 1: hit${"x".repeat(1997)}...`);
    expect(result.output).not.toContain("bin.dat");
    expect(result.output.match(/Line \d+:/g)).toHaveLength(GREP_MAX_MATCHES);
  });

  it("says when nothing matches", async () => {
    await withFiles({ "a.txt": "x" });
    expect((await runTool(grepTool, { pattern: "zzz" }, harness.context)).output).toBe("No matches found.");
  });
});

describe("list", () => {
  it("draws an indented tree, folders first, skipping build output", async () => {
    await withFiles({ "src/index.ts": "", "src/lib/util.ts": "", "README.md": "", "dist/bundle.js": "", "node_modules/x/i.js": "", "package.json": "" });
    const result = await runTool(listTool, {}, harness.context);
    expect(result.output).toBe("./\n  src/\n    lib/\n      util.ts\n    index.ts\n  package.json\n  README.md");
  });

  it("adds ignore patterns and lists a subfolder", async () => {
    await withFiles({ "src/a.ts": "", "src/a.test.ts": "", "src/b.ts": "" });
    const result = await runTool(listTool, { path: "src", ignore: ["*.test.ts"] }, harness.context);
    expect(result.output).toBe("src/\n  a.ts\n  b.ts");
  });

  it(`shows at most ${LIST_MAX_ENTRIES} entries, shallowest first`, async () => {
    const files: Record<string, string> = { "top.txt": "" };
    for (let i = 0; i < LIST_MAX_ENTRIES + 10; i++) files[`deep/f${String(i).padStart(3, "0")}.txt`] = "";
    await withFiles(files);
    const result = await runTool(listTool, {}, harness.context);
    expect(result.output).toContain("  top.txt");
    expect(result.output).toContain(`(Showing ${LIST_MAX_ENTRIES} of ${LIST_MAX_ENTRIES + 12} entries, shallowest first.`);
    expect(result.metadata.truncated).toBe(true);
  });
});
