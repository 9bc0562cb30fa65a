import { describe, expect, it } from "vitest";
import {
  readDirectoryHandle,
  readDroppedEntries,
  readFileList,
  type DirectoryHandleLike,
  type DroppedEntryLike,
  type FileHandleLike,
  type FileLike,
} from "../../src/transfer";

type Tree = { [name: string]: string | Uint8Array | Tree };

let reads = 0;
function fileLike(name: string, data: string | Uint8Array, relative?: string): FileLike {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  return {
    name,
    size: bytes.length,
    lastModified: 1_700_000_000_000,
    ...(relative !== undefined ? { webkitRelativePath: relative } : {}),
    arrayBuffer: async () => {
      reads++;
      return bytes.slice().buffer as ArrayBuffer;
    },
  };
}

function handle(name: string, tree: Tree): DirectoryHandleLike {
  return {
    kind: "directory",
    name,
    async *values() {
      for (const [child, value] of Object.entries(tree)) {
        if (typeof value === "string" || value instanceof Uint8Array) {
          yield { kind: "file", name: child, getFile: async () => fileLike(child, value) } satisfies FileHandleLike;
        } else yield handle(child, value);
      }
    },
  };
}

function dropped(name: string, value: string | Uint8Array | Tree): DroppedEntryLike {
  if (typeof value === "string" || value instanceof Uint8Array) {
    return { isFile: true, isDirectory: false, name, file: (ok) => ok(fileLike(name, value)) };
  }
  const children = Object.entries(value).map(([n, v]) => dropped(n, v));
  return {
    isFile: false,
    isDirectory: true,
    name,
    createReader: () => {
      // Hand out entries in batches of 2, like Chromium does in batches of 100.
      let at = 0;
      return {
        readEntries: (ok) => {
          const batch = children.slice(at, at + 2);
          at += 2;
          setTimeout(() => ok(batch), 0);
        },
      };
    },
  };
}

const project: Tree = {
  "README.md": "# p",
  src: { "a.ts": "a", "b.ts": "b", "c.ts": "c", "d.ts": "d", "e.ts": "e" },
  assets: { "x.bin": new Uint8Array([0, 1, 2]) },
  empty: {},
  node_modules: { left: { "pad.js": "x" } },
  ".git": { HEAD: "ref" },
};

describe("folder import", () => {
  it("reads a directory handle, skipping node_modules and .git without walking them", async () => {
    const result = await readDirectoryHandle(handle("p", project));
    expect(result.entries.map((e) => `${e.kind}:${e.path}`).sort()).toEqual([
      "dir:empty",
      "file:README.md",
      "file:assets/x.bin",
      "file:src/a.ts",
      "file:src/b.ts",
      "file:src/c.ts",
      "file:src/d.ts",
      "file:src/e.ts",
    ]);
    expect(result.skipped).toEqual({ nodeModules: 1, git: 1, macMetadata: 0 });
    const bin = result.entries.find((e) => e.path === "assets/x.bin");
    expect(bin?.kind === "file" && bin.data).toBeInstanceOf(Uint8Array);
    expect(result.strippedFolder).toBeUndefined();
  });

  it("reads dropped entries in batches and makes a single dropped folder the root", async () => {
    const progress: number[] = [];
    const result = await readDroppedEntries([dropped("p", project)], {}, (p) => progress.push(p.files));
    expect(result.strippedFolder).toBe("p");
    expect(result.entries.filter((e) => e.kind === "file")).toHaveLength(7);
    expect(progress).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    const several = await readDroppedEntries([dropped("a.txt", "a"), dropped("dir", { "b.txt": "b" })]);
    expect(several.entries.map((e) => e.path).sort()).toEqual(["a.txt", "dir/b.txt"]);
  });

  it("reads a webkitdirectory file list, stripping the picked folder", async () => {
    const files = [
      fileLike("a.ts", "a", "proj/src/a.ts"),
      fileLike("README.md", "r", "proj/README.md"),
      fileLike("x.js", "x", "proj/node_modules/x.js"),
    ];
    const result = await readFileList(files, { keepNodeModules: true });
    expect(result.entries.map((e) => e.path).sort()).toEqual(["README.md", "node_modules/x.js", "src/a.ts"]);
    expect(result.entries.find((e) => e.path === "README.md")).toMatchObject({ data: "r", mtime: 1_700_000_000_000 });
  });

  it("refuses too many entries and too many bytes before reading any content", async () => {
    reads = 0;
    const many = Array.from({ length: 11 }, (_, i) => fileLike(`f${i}`, "x", `p/f${i}`));
    await expect(readFileList(many, { limits: { maxEntries: 10 } })).rejects.toMatchObject({ reason: "too-many-entries" });
    await expect(readFileList(many, { limits: { maxBytes: 5 } })).rejects.toMatchObject({ reason: "too-large" });
    expect(reads).toBe(0);
  });

  it("skips files and folders whose names the workspace cannot hold, lists them, and does not read them", async () => {
    reads = 0;
    const result = await readDirectoryHandle(handle("p", { "ok.txt": "x", "we:ird.txt": "y", "odd|dir": { "a.txt": "a", "b.txt": "b" }, "evil\u202Etxt.exe": "z" }));
    expect(result.entries.map((e) => e.path)).toEqual(["ok.txt"]);
    expect(result.skipped.unstorable).toEqual({ files: 4, names: ["we:ird.txt", "odd|dir/", "evil\u202Etxt.exe"] });
    expect(reads).toBe(1);
    // With the picked folder's name stripped first: a webkitdirectory list.
    const listed = await readFileList([fileLike("a.ts", "a", "my:proj/a.ts"), fileLike("we:ird.txt", "w", "my:proj/we:ird.txt")]);
    expect(listed.entries.map((e) => e.path)).toEqual(["a.ts"]);
    expect(listed.skipped.unstorable).toEqual({ files: 1, names: ["we:ird.txt"] });
    // Only unstorable names: nothing imported, but not "empty" either.
    expect((await readDirectoryHandle(handle("p", { "a:b": "x" }))).skipped.unstorable).toEqual({ files: 1, names: ["a:b"] });
  });

  it("leaves out .DS_Store and __MACOSX unless kept", async () => {
    const result = await readDirectoryHandle(handle("p", { "a.txt": "a", ".DS_Store": "junk", src: { ".DS_Store": "junk", "b.ts": "b" }, __MACOSX: { "._a.txt": "junk" } }));
    expect(result.entries.map((e) => e.path).sort()).toEqual(["a.txt", "src/b.ts"]);
    expect(result.skipped.macMetadata).toBe(3);
    const kept = await readDirectoryHandle(handle("p", { "a.txt": "a", ".DS_Store": "junk" }), { keepMacMetadata: true });
    expect(kept.entries.map((e) => e.path).sort()).toEqual([".DS_Store", "a.txt"]);
  });

  it("keeps a running byte count when a file grew after it was listed", async () => {
    const liar: FileLike = { ...fileLike("a", "x", "p/a"), size: 1, arrayBuffer: async () => new Uint8Array(100).buffer };
    await expect(readFileList([liar], { limits: { maxBytes: 50 } })).rejects.toMatchObject({ reason: "too-large" });
  });

  it("refuses an empty folder and can be cancelled", async () => {
    await expect(readDirectoryHandle(handle("p", {}))).rejects.toMatchObject({ reason: "empty" });
    const controller = new AbortController();
    const promise = readDirectoryHandle(handle("p", project), {}, (p) => p.files === 1 && controller.abort(), controller.signal);
    await expect(promise).rejects.toMatchObject({ name: "AbortError" });
  });
});
