// Search across files (the Search side view's engine): literal and regex, match case, whole word,
// include/exclude globs, positions and previews, replace one / replace all through the file service.
import { describe, expect, it } from "vitest";
import { WorkspaceFiles } from "../../src/runtime";
import { openStorage } from "../../src/storage";
import { MAX_SEARCH_MATCHES, SearchQueryError, replaceInText, searchFiles, type SearchQuery } from "../../src/ui/search/workspace-search";

const files: Array<[string, string | Uint8Array]> = [
  ["src/a.ts", "const value = 1;\nexport function getValue() {\n  return value;\n}\n"],
  ["src/lib/b.ts", "// Value of b\nexport const valueB = 'value';\n"],
  ["docs/readme.md", "The value is documented here.\n"],
  ["node_modules/pkg/index.js", "module.exports = value;\n"],
  ["dist/a.js", "var value = 1;\n"],
  ["image.png", new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0x76, 0x61, 0x6c, 0x75, 0x65])],
];

const search = (query: SearchQuery) => searchFiles(files, query);
const paths = (query: SearchQuery) => search(query).files.map((f) => f.path);

describe("workspace search", () => {
  it("finds a literal case-insensitively by default, grouped by file in path order, skipping node_modules and binary files", () => {
    const result = search({ text: "value" });
    expect(result.files.map((f) => f.path)).toEqual(["dist/a.js", "docs/readme.md", "src/a.ts", "src/lib/b.ts"]);
    const a = result.files.find((f) => f.path === "src/a.ts")!;
    expect(a.matches.map((m) => [m.line, m.column])).toEqual([
      [1, 7],
      [2, 20],
      [3, 10],
    ]);
    expect(a.matches[1]!.preview).toEqual({ before: "export function get", match: "Value", after: "() {" });
    expect(a.matches[1]!.endColumn).toBe(25);
    expect(result.matchCount).toBe(1 + 1 + 3 + 3);
    expect(result.truncated).toBe(false);
  });

  it("matches case when asked", () => {
    const b = search({ text: "Value", matchCase: true }).files;
    expect(b.map((f) => [f.path, f.matches.length])).toEqual([
      ["src/a.ts", 1],
      ["src/lib/b.ts", 1],
    ]);
  });

  it("matches whole words only when asked", () => {
    const result = search({ text: "value", wholeWord: true });
    const b = result.files.find((f) => f.path === "src/lib/b.ts")!;
    // "Value" in the comment and 'value' in quotes, not "valueB".
    expect(b.matches.map((m) => m.preview.match)).toEqual(["Value", "value"]);
    expect(result.files.find((f) => f.path === "src/a.ts")!.matches).toHaveLength(2);
  });

  it("treats regex characters literally unless regex is on, and reports an invalid regex clearly", () => {
    expect(searchFiles([["a.txt", "a.b axb (x)"]], { text: "a.b" }).matchCount).toBe(1);
    expect(searchFiles([["a.txt", "a.b axb (x)"]], { text: "a.b", regex: true }).matchCount).toBe(2);
    expect(searchFiles([["a.txt", "a.b axb (x)"]], { text: "(x)" }).matchCount).toBe(1);
    expect(() => searchFiles([["a.txt", "x"]], { text: "(unclosed", regex: true })).toThrow(SearchQueryError);
    expect(() => searchFiles([["a.txt", "x"]], { text: "(unclosed", regex: true })).toThrow(/Invalid regular expression/);
  });

  it("filters by include and exclude globs (names, folders, paths)", () => {
    expect(paths({ text: "value", include: "*.ts" })).toEqual(["src/a.ts", "src/lib/b.ts"]);
    expect(paths({ text: "value", include: "src" })).toEqual(["src/a.ts", "src/lib/b.ts"]);
    expect(paths({ text: "value", include: "src/lib/**" })).toEqual(["src/lib/b.ts"]);
    expect(paths({ text: "value", exclude: "dist, *.md" })).toEqual(["src/a.ts", "src/lib/b.ts"]);
    expect(paths({ text: "value", include: "docs/*.md, dist" })).toEqual(["dist/a.js", "docs/readme.md"]);
    expect(paths({ text: "value", include: "node_modules" })).toEqual(["node_modules/pkg/index.js"]);
  });

  it("skips empty matches and an empty query", () => {
    expect(search({ text: "" }).files).toEqual([]);
    expect(searchFiles([["a.txt", "abc\n\n"]], { text: "^", regex: true }).matchCount).toBe(0);
  });

  it("stops at the result cap and says so", () => {
    const big = "x\n".repeat(MAX_SEARCH_MATCHES + 5);
    const result = searchFiles([["a.txt", big], ["b.txt", "x"]], { text: "x" });
    expect(result.matchCount).toBe(MAX_SEARCH_MATCHES);
    expect(result.truncated).toBe(true);
    expect(result.files.map((f) => f.path)).toEqual(["a.txt"]);
  });

  it("replaces all matches or only one, expanding groups in regex mode", () => {
    const text = "foo(1) foo(2) foo(3)";
    expect(replaceInText(text, { text: "foo" }, "bar")).toEqual({ text: "bar(1) bar(2) bar(3)", count: 3 });
    expect(replaceInText(text, { text: "foo" }, "bar", 7)).toEqual({ text: "foo(1) bar(2) foo(3)", count: 1 });
    expect(replaceInText(text, { text: "foo\\((\\d)\\)", regex: true }, "call($1, $$)")).toEqual({ text: "call(1, $) call(2, $) call(3, $)", count: 3 });
    expect(replaceInText(text, { text: "foo" }, "$1")).toEqual({ text: "$1(1) $1(2) $1(3)", count: 3 });
    // A match that moved is not replaced.
    expect(replaceInText(text, { text: "foo" }, "bar", 3)).toEqual({ text, count: 0 });
  });

  it("replaces through the workspace file service, and a second replace undoes it", async () => {
    const storage = await openStorage({ name: `search-${Date.now()}` });
    const service = await WorkspaceFiles.open(storage, "ws");
    service.writeSync("src/a.ts", "let count = 1;\ncount++;\n");
    await new Promise((r) => setTimeout(r, 0));
    const seen: string[] = [];
    service.onDidChange((changes) => seen.push(...changes.map((c) => `${c.type}:${c.path}:${c.source}`)));
    const query = { text: "count", wholeWord: true, matchCase: true };
    const hits = searchFiles(service.entries(), query);
    expect(hits.matchCount).toBe(2);
    for (const file of hits.files) service.writeSync(file.path, replaceInText(service.readSync(file.path) as string, query, "total").text, { source: "user" });
    expect(service.readSync("src/a.ts")).toBe("let total = 1;\ntotal++;\n");
    await new Promise((r) => setTimeout(r, 0));
    expect(seen).toEqual(["changed:src/a.ts:user"]);
    const back = { ...query, text: "total" };
    service.writeSync("src/a.ts", replaceInText(service.readSync("src/a.ts") as string, back, "count").text);
    expect(service.readSync("src/a.ts")).toBe("let count = 1;\ncount++;\n");
    await service.flush();
    expect((await storage.files.list("ws")).find((r) => r.path === "src/a.ts")?.data).toBe("let count = 1;\ncount++;\n");
    service.dispose();
  });
});
