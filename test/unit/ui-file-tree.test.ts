// The file tree's data side: building the tree, visible rows, keyboard navigation, name checks.
import { describe, expect, it } from "vitest";
import type { FileStat } from "../../src/runtime";
import { ancestors, buildTree, checkMove, checkNewName, checkRename, navigate, visibleRows } from "../../src/ui/files";

const stat = (path: string, kind: "file" | "dir" = "file"): FileStat => ({ path, kind, size: 0, mtime: 0 });

const sample = () =>
  buildTree([
    stat("src/lib/util.ts"),
    stat("src/main.ts"),
    stat("README.md"),
    stat("src", "dir"),
    stat("docs", "dir"),
    stat("file10.txt"),
    stat("file2.txt"),
    stat("a.txt"),
  ]);

describe("buildTree", () => {
  it("puts folders first, then names in natural order, and creates implied folders", () => {
    const tree = sample();
    expect(tree.map((n) => n.name)).toEqual(["docs", "src", "a.txt", "file2.txt", "file10.txt", "README.md"]);
    const src = tree[1]!;
    expect(src.children.map((n) => `${n.kind}:${n.path}`)).toEqual(["dir:src/lib", "file:src/main.ts"]);
    expect(src.children[0]!.children.map((n) => n.path)).toEqual(["src/lib/util.ts"]);
  });

  it("keeps empty folders", () => {
    expect(sample()[0]).toMatchObject({ path: "docs", kind: "dir", children: [] });
  });
});

describe("visibleRows", () => {
  it("shows children of expanded folders only, with levels and positions", () => {
    const rows = visibleRows(sample(), new Set(["src", "src/lib"]));
    expect(rows.map((r) => `${r.level}:${r.node.path}`)).toEqual([
      "1:docs",
      "1:src",
      "2:src/lib",
      "3:src/lib/util.ts",
      "2:src/main.ts",
      "1:a.txt",
      "1:file2.txt",
      "1:file10.txt",
      "1:README.md",
    ]);
    const util = rows.find((r) => r.node.path === "src/lib/util.ts")!;
    expect(util).toMatchObject({ position: 1, siblings: 1, parent: "src/lib" });
    expect(rows[1]).toMatchObject({ expanded: true, position: 2, siblings: 6 });
  });

  it("hides the inside of a collapsed folder even when a subfolder is expanded", () => {
    const rows = visibleRows(sample(), new Set(["src/lib"]));
    expect(rows.some((r) => r.node.path.startsWith("src/"))).toBe(false);
  });
});

describe("navigate", () => {
  const rows = visibleRows(sample(), new Set(["src"]));

  it("moves up and down, stopping at the ends", () => {
    expect(navigate(rows, "docs", "ArrowDown")).toEqual({ focus: "src" });
    expect(navigate(rows, "docs", "ArrowUp")).toEqual({ focus: "docs" });
    expect(navigate(rows, "README.md", "ArrowDown")).toEqual({ focus: "README.md" });
    expect(navigate(rows, undefined, "ArrowDown")).toEqual({ focus: "docs" });
  });

  it("Home and End jump to the first and last row", () => {
    expect(navigate(rows, "src/main.ts", "Home")).toEqual({ focus: "docs" });
    expect(navigate(rows, "docs", "End")).toEqual({ focus: "README.md" });
  });

  it("Right expands a closed folder, then enters it; Left collapses, then goes to the parent", () => {
    expect(navigate(rows, "docs", "ArrowRight")).toEqual({ expand: "docs" });
    expect(navigate(rows, "src", "ArrowRight")).toEqual({ focus: "src/lib" });
    expect(navigate(rows, "src", "ArrowLeft")).toEqual({ collapse: "src" });
    expect(navigate(rows, "src/main.ts", "ArrowLeft")).toEqual({ focus: "src" });
    expect(navigate(rows, "a.txt", "ArrowLeft")).toEqual({});
    expect(navigate(rows, "a.txt", "ArrowRight")).toEqual({});
  });

  it("does nothing in an empty tree", () => {
    expect(navigate([], undefined, "ArrowDown")).toEqual({});
  });
});

describe("name checks", () => {
  const tree = sample();

  it("refuses invalid names with the reason", () => {
    expect(checkNewName(tree, "", "a:b")).toMatch(/not allowed/);
    expect(checkNewName(tree, "", "")).toMatch(/empty/);
    expect(checkNewName(tree, "", "a//b")).toMatch(/"\/\/"/);
    expect(checkNewName(tree, "", "/a")).toMatch(/start or end/);
    expect(checkNewName(tree, "", "a/../b")).toMatch(/not a valid name/);
    expect(checkNewName(tree, "", "..")).toMatch(/not a valid name/);
  });

  it("refuses a name that exists in the same folder, and accepts it elsewhere", () => {
    expect(checkNewName(tree, "src", "main.ts")).toMatch(/already exists in src/);
    expect(checkNewName(tree, "", "a.txt")).toMatch(/already exists at the top/);
    expect(checkNewName(tree, "docs", "main.ts")).toBeUndefined();
    expect(checkNewName(tree, "src/lib", "index.ts")).toBeUndefined();
  });

  it("accepts a relative path, through existing folders or new ones, but not through a file or onto an existing entry", () => {
    expect(checkNewName(tree, "", "src/lib/new.ts")).toBeUndefined();
    expect(checkNewName(tree, "", "docs/guide/intro.md")).toBeUndefined();
    expect(checkNewName(tree, "src", "lib/more/deep.ts")).toBeUndefined();
    expect(checkNewName(tree, "", "src/lib/util.ts")).toMatch(/already exists in src\/lib/);
    expect(checkNewName(tree, "", "README.md/x.ts")).toMatch(/"README.md" is a file/);
    expect(checkNewName(tree, "", "src/b:ad/x.ts")).toMatch(/not allowed/);
  });

  it("allows renaming to the same name and refuses a sibling's name", () => {
    expect(checkRename(tree, "src/main.ts", "main.ts")).toBeUndefined();
    expect(checkRename(tree, "src/main.ts", "lib")).toMatch(/already exists/);
    expect(checkRename(tree, "src/main.ts", "app.ts")).toBeUndefined();
    expect(checkRename(tree, "src/main.ts", "bad|name")).toMatch(/not allowed/);
  });

  it("refuses moving a folder into itself or onto an existing name", () => {
    expect(checkMove(tree, "src", "src/lib")).toMatch(/into itself/);
    expect(checkMove(tree, "a.txt", "src")).toBeUndefined();
    expect(checkMove(buildTree([stat("a.txt"), stat("src/a.txt")]), "a.txt", "src")).toMatch(/already exists/);
    expect(checkMove(tree, "src/main.ts", "src")).toBeUndefined();
  });

  it("lists the folders above a path", () => {
    expect(ancestors("a/b/c.ts")).toEqual(["a", "a/b"]);
    expect(ancestors("c.ts")).toEqual([]);
  });
});
