// Quick open ranking: in-order matching, file names first, word starts and runs preferred.
import { describe, expect, it } from "vitest";
import { filterPaths, scorePath } from "../../src/ui/editor";

const paths = [
  "src/ui/editor/editor-panel.tsx",
  "src/ui/editor/quick-open.tsx",
  "src/ui/files/file-tree.tsx",
  "src/main.tsx",
  "README.md",
  "test/unit/ui-file-tree.test.ts",
  "docs/deep/nested/main.tsx",
];

describe("quick open filter", () => {
  it("matches characters in order, case-insensitively", () => {
    expect(scorePath("src/main.tsx", "MAIN")).toBeDefined();
    expect(scorePath("src/main.tsx", "nima")).toBeUndefined();
    expect(scorePath("src/main.tsx", "smt")).toBeDefined();
  });

  it("returns every path (sorted by name) for an empty query", () => {
    expect(filterPaths(paths, "").map((m) => m.path)).toHaveLength(paths.length);
  });

  it("ranks file-name matches above matches spread over folders", () => {
    const result = filterPaths(paths, "filetree").map((m) => m.path);
    expect(result[0]).toBe("src/ui/files/file-tree.tsx");
    expect(result).toContain("test/unit/ui-file-tree.test.ts");
  });

  it("prefers the shorter path among equal name matches", () => {
    const result = filterPaths(paths, "main").map((m) => m.path);
    expect(result.slice(0, 2)).toEqual(["src/main.tsx", "docs/deep/nested/main.tsx"]);
  });

  it("prefers word starts: 'qo' finds quick-open", () => {
    expect(filterPaths(paths, "qo")[0]?.path).toBe("src/ui/editor/quick-open.tsx");
  });

  it("reports matched positions for highlighting", () => {
    const match = scorePath("src/main.tsx", "main")!;
    expect(match.positions.map((i) => "src/main.tsx"[i]).join("")).toBe("main");
    expect(match.positions[0]).toBe(4);
  });

  it("falls back to plain in-order matching when word starts would skip needed letters", () => {
    expect(scorePath("xbc-b", "bc")).toBeDefined();
  });

  it("caps the number of results", () => {
    const many = Array.from({ length: 500 }, (_, i) => `f${i}.ts`);
    expect(filterPaths(many, "f", 50)).toHaveLength(50);
  });
});
