import { describe, expect, it, vi } from "vitest";
import { PathError } from "../../src/base";
import { WorkspaceFiles, WorkspaceFsError, type FileChange } from "../../src/runtime";
import { RECORD_VERSION, StorageQuotaError, openStorage, type CheckedWrite, type FileRecord, type Storage } from "../../src/storage";

let counter = 0;
const freshStorage = () => openStorage({ name: `workspace-files-${counter++}-${Date.now()}` });

function collectChanges(files: WorkspaceFiles): FileChange[][] {
  const batches: FileChange[][] = [];
  files.onDidChange((changes) => batches.push(changes));
  return batches;
}

const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

async function storedPaths(storage: Storage, workspaceId: string): Promise<string[]> {
  return (await storage.files.list(workspaceId)).map((r) => `${r.kind}:${r.path}`).sort();
}

/** A storage whose file writes can be made to fail with a quota error, counting attempts. */
function quotaStorage(storage: Storage) {
  const state = { failing: false, attempts: 0 };
  const files = storage.files;
  const wrapped: Storage = {
    ...storage,
    files: {
      list: (id: string) => files.list(id),
      get: (id: string, path: string) => files.get(id, path),
      deleteAll: (id: string) => files.deleteAll(id),
      applyChecked: async (id: string, writes: CheckedWrite[]) => {
        state.attempts++;
        if (state.failing) throw new StorageQuotaError(new DOMException("quota", "QuotaExceededError"));
        return files.applyChecked(id, writes);
      },
    } as Storage["files"],
  };
  return { storage: wrapped, state };
}

describe("WorkspaceFiles", () => {
  it("writes, reads, lists and persists text files through to IndexedDB", async () => {
    const storage = await freshStorage();
    const files = await WorkspaceFiles.open(storage, "w1");
    await files.writeFile("src/a.ts", "export const a = 1;\n", { source: "editor" });
    await files.writeFile("/README.md", "# hi\n");
    expect(await files.readText("src/a.ts")).toBe("export const a = 1;\n");
    expect(new TextDecoder().decode(await files.readFile("README.md"))).toBe("# hi\n");
    expect((await files.list()).map((s) => `${s.kind}:${s.path}`)).toEqual(["dir:src", "file:README.md"]);
    expect(await files.stat("src/a.ts")).toMatchObject({ kind: "file", size: 20 });
    expect(await files.exists("src")).toBe(true);
    expect(await files.exists("nope")).toBe(false);
    await files.flush();
    const record = await storage.files.get("w1", "src/a.ts");
    expect(record?.data).toBe("export const a = 1;\n");
    expect(await storedPaths(storage, "w1")).toEqual(["dir:src", "file:README.md", "file:src/a.ts"]);
  });

  it("a write made from an older base merges with what the file holds now, or fails with ECONFLICT and writes nothing", async () => {
    const storage = await freshStorage();
    const files = await WorkspaceFiles.open(storage, "w1");
    await files.writeFile("a.txt", "one\ntwo\nthree\n");
    await files.writeFile("a.txt", "one\ntwo\nthree\nappended\n", { source: "terminal" });
    // Made from the first version: the append is kept.
    await files.writeFile("a.txt", "ONE\ntwo\nthree\n", { source: "editor", base: "one\ntwo\nthree\n" });
    expect(await files.readText("a.txt")).toBe("ONE\ntwo\nthree\nappended\n");
    // The same line changed since: refused, the file as it was.
    const refused = files.writeFile("a.txt", "one\nTWO\nthree\n", { source: "editor", base: "one\nzwei\nthree\n" });
    await expect(refused).rejects.toMatchObject({ code: "ECONFLICT", path: "a.txt" });
    expect(await files.readText("a.txt")).toBe("ONE\ntwo\nthree\nappended\n");
    expect((await storage.files.get("w1", "a.txt"))?.data).toBe("ONE\ntwo\nthree\nappended\n");
    // A base equal to the file (or a new file) writes as given.
    await files.writeFile("a.txt", "new\n", { base: "ONE\ntwo\nthree\nappended\n" });
    await files.writeFile("b.txt", "b\n", { base: "" });
    expect([await files.readText("a.txt"), await files.readText("b.txt")]).toEqual(["new\n", "b\n"]);
    await files.close();
    storage.close();
  });

  it("delivers the changes of one tick as one batch with the caller's source", async () => {
    const storage = await freshStorage();
    const files = await WorkspaceFiles.open(storage, "w1");
    const batches = collectChanges(files);
    await files.writeFile("a/b.txt", "1", { source: "agent", batched: true });
    await files.writeFile("a/b.txt", "2", { source: "agent", batched: true });
    files.writeSync("c.txt", "3", { source: "terminal" });
    await tick();
    expect(batches).toHaveLength(1);
    expect(batches[0]).toEqual([
      { type: "created", path: "a", kind: "dir", source: "agent" },
      { type: "created", path: "a/b.txt", kind: "file", source: "agent" },
      { type: "changed", path: "a/b.txt", kind: "file", source: "agent" },
      { type: "created", path: "c.txt", kind: "file", source: "terminal" },
    ]);
    // Writing identical content is not a change.
    await files.writeFile("c.txt", "3");
    await tick();
    expect(batches).toHaveLength(1);
  });

  it("batches many writes into one transaction, stored on its own shortly after (PERSIST_DELAY_MS, 25 ms)", async () => {
    const storage = await freshStorage();
    const { storage: counting, state } = quotaStorage(storage);
    const files = await WorkspaceFiles.open(counting, "w1");
    const started = Date.now();
    for (let i = 0; i < 200; i++) files.writeSync(`f${i}.txt`, `content ${i}`);
    expect(files.pendingWrites).toBe(200);
    while (files.pendingWrites > 0 || (await storage.files.get("w1", "f199.txt")) === undefined) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      // 25 ms on a quiet machine; the bound leaves room for a loaded one.
      expect(Date.now() - started).toBeLessThan(5000);
    }
    expect(state.attempts).toBe(1);
    expect((await storage.files.list("w1")).length).toBe(200);
  });

  it("keeps binary files as bytes and text given as UTF-8 bytes as text, byte for byte", async () => {
    const storage = await freshStorage();
    const files = await WorkspaceFiles.open(storage, "w1");
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0xfe]);
    const invalidUtf8 = new Uint8Array([0x61, 0xc3, 0x28]);
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, 0x68, 0x69]);
    await files.writeFile("img.png", png);
    await files.writeFile("bad.txt", invalidUtf8);
    await files.writeFile("bom.txt", bom);
    await files.writeFile("utf8.txt", new TextEncoder().encode("héllo ✓"));
    png[0] = 0; // the service keeps its own copy
    await files.flush();
    expect((await storage.files.get("w1", "img.png"))?.data).toBeInstanceOf(Uint8Array);
    expect((await storage.files.get("w1", "bad.txt"))?.data).toBeInstanceOf(Uint8Array);
    expect((await storage.files.get("w1", "utf8.txt"))?.data).toBe("héllo ✓");
    expect((await storage.files.get("w1", "bom.txt"))?.data).toBe("\uFEFFhi");

    const reopened = await WorkspaceFiles.open(storage, "w1");
    expect(Array.from(await reopened.readFile("img.png"))).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0xfe]);
    expect(Array.from(await reopened.readFile("bad.txt"))).toEqual([0x61, 0xc3, 0x28]);
    expect(Array.from(await reopened.readFile("bom.txt"))).toEqual([0xef, 0xbb, 0xbf, 0x68, 0x69]);
    expect((await reopened.stat("img.png"))?.size).toBe(11);
  });

  it("keeps empty folders across a reopen", async () => {
    const storage = await freshStorage();
    const files = await WorkspaceFiles.open(storage, "w1");
    await files.mkdir("empty/nested");
    await files.close();
    const reopened = await WorkspaceFiles.open(storage, "w1");
    expect(await reopened.stat("empty/nested")).toMatchObject({ kind: "dir" });
    expect((await reopened.list("empty")).map((s) => s.path)).toEqual(["empty/nested"]);
  });

  it("renames and moves folders with everything in them, and refuses to overwrite", async () => {
    const storage = await freshStorage();
    const files = await WorkspaceFiles.open(storage, "w1");
    await files.writeFile("src/lib/a.ts", "a");
    await files.writeFile("src/lib/deep/b.ts", "b");
    await files.writeFile("other.txt", "o");
    await files.flush();
    const batches = collectChanges(files);
    await files.rename("src/lib", "pkg/lib", { source: "user" });
    await tick();
    expect(await files.readText("pkg/lib/a.ts")).toBe("a");
    expect(await files.readText("pkg/lib/deep/b.ts")).toBe("b");
    expect(await files.exists("src/lib")).toBe(false);
    expect(await files.exists("src")).toBe(true);
    const created = batches.flat().filter((c) => c.type === "created");
    expect(created).toContainEqual({ type: "created", path: "pkg/lib/deep/b.ts", kind: "file", source: "user", renamedFrom: "src/lib/deep/b.ts" });
    expect(batches.flat().filter((c) => c.type === "deleted").map((c) => c.path)).toEqual([
      "src/lib/deep/b.ts",
      "src/lib/deep",
      "src/lib/a.ts",
      "src/lib",
    ]);

    await expect(files.rename("other.txt", "pkg/lib/a.ts")).rejects.toMatchObject({ code: "EEXIST" });
    await expect(files.rename("pkg", "pkg/lib/inside")).rejects.toMatchObject({ code: "EINVAL" });
    await expect(files.rename("missing", "x")).rejects.toMatchObject({ code: "ENOENT" });
    expect(await files.readText("pkg/lib/a.ts")).toBe("a");

    await files.flush();
    expect(await storedPaths(storage, "w1")).toEqual([
      "dir:pkg",
      "dir:pkg/lib",
      "dir:pkg/lib/deep",
      "dir:src",
      "file:other.txt",
      "file:pkg/lib/a.ts",
      "file:pkg/lib/deep/b.ts",
    ]);
  });

  it("deletes a folder with everything under it, in memory and in storage", async () => {
    const storage = await freshStorage();
    const files = await WorkspaceFiles.open(storage, "w1");
    await files.writeFile("a/b/c.txt", "c");
    await files.writeFile("a/d.txt", "d");
    await files.writeFile("keep.txt", "k");
    await files.remove("a");
    expect((await files.listAll()).map((s) => s.path)).toEqual(["keep.txt"]);
    await files.flush();
    expect(await storedPaths(storage, "w1")).toEqual(["file:keep.txt"]);
    await expect(files.remove("a")).rejects.toBeInstanceOf(WorkspaceFsError);
  });

  it("refuses invalid names and paths outside the workspace with a clear message", async () => {
    const storage = await freshStorage();
    const files = await WorkspaceFiles.open(storage, "w1");
    await expect(files.writeFile("../etc/passwd", "x")).rejects.toThrow(/outside the workspace/);
    await expect(files.writeFile("a/../../x", "x")).rejects.toBeInstanceOf(PathError);
    await expect(files.writeFile("bad:name.txt", "x")).rejects.toThrow(/not allowed/);
    await expect(files.mkdir(" spaced ")).rejects.toThrow(/spaces/);
    await expect(files.writeFile("", "x")).rejects.toThrow(/root/);
    await expect(files.readText("nope.txt")).rejects.toThrow(/does not exist/);
    await files.writeFile("file.txt", "x");
    await expect(files.writeFile("file.txt/child", "x")).rejects.toMatchObject({ code: "ENOTDIR" });
    await expect(files.writeFile("", "x")).rejects.toBeInstanceOf(PathError);
    expect(await files.listAll()).toHaveLength(1);
  });

  it("a write storage refuses fails where it was made with ENOSPC and is undone, so memory matches storage", async () => {
    const base = await freshStorage();
    const { storage, state } = quotaStorage(base);
    const files = await WorkspaceFiles.open(storage, "w1");
    await files.writeFile("saved.txt", "safe");
    const failures: Error[] = [];
    files.onDidFailToPersist((error) => failures.push(error));
    const batches = collectChanges(files);

    state.failing = true;
    await expect(files.writeFile("dir/big.txt", "too much")).rejects.toMatchObject({
      code: "ENOSPC",
      message: expect.stringMatching(/^No space left on device/),
    });
    await expect(files.writeFile("saved.txt", "changed")).rejects.toMatchObject({ code: "ENOSPC" });
    await expect(files.remove("saved.txt")).rejects.toMatchObject({ code: "ENOSPC" });
    expect(failures).toHaveLength(3);
    // Nothing claims to be there that storage does not hold.
    expect(await files.exists("dir/big.txt")).toBe(false);
    expect(await files.exists("dir")).toBe(false);
    expect(await files.readText("saved.txt")).toBe("safe");
    expect(files.pendingWrites).toBe(0);
    expect(await storedPaths(base, "w1")).toEqual(["file:saved.txt"]);
    await tick();
    // The undo is reported, so the tree and the editor show what is stored.
    const undone = batches.flat().filter((c) => c.source === "system");
    expect(undone).toEqual(
      expect.arrayContaining([
        { type: "deleted", path: "dir/big.txt", kind: "file", source: "system" },
        { type: "deleted", path: "dir", kind: "dir", source: "system" },
        { type: "changed", path: "saved.txt", kind: "file", source: "system" },
        { type: "created", path: "saved.txt", kind: "file", source: "system" },
      ]),
    );

    // Space is back: the next write is stored.
    state.failing = false;
    await files.writeFile("next.txt", "n");
    expect(await storedPaths(base, "w1")).toEqual(["file:next.txt", "file:saved.txt"]);
  });

  it("changes made while a refused batch was in flight are undone too and their writers told", async () => {
    const base = await freshStorage();
    const { storage, state } = quotaStorage(base);
    const files = await WorkspaceFiles.open(storage, "w1");
    await files.writeFile("a.txt", "1");
    // A batch that is stored while a.txt changes again: storage then holds "2", not "1".
    files.writeSync("a.txt", "2");
    const stored = files.flush();
    files.writeSync("a.txt", "3");
    await stored;
    state.failing = true;
    const first = files.writeFile("b.txt", "b");
    files.writeSync("c.txt", "c");
    const second = files.flush();
    await expect(first).rejects.toMatchObject({ code: "ENOSPC" });
    await expect(second).rejects.toMatchObject({ code: "ENOSPC" });
    expect(await files.readText("a.txt")).toBe("2");
    expect(await files.exists("b.txt")).toBe(false);
    expect(await files.exists("c.txt")).toBe(false);
    expect((await base.files.get("w1", "a.txt"))?.data).toBe("2");
  });

  it("a refused background write is undone and reported; other storage failures are EIO", async () => {
    const base = await freshStorage();
    const files = await WorkspaceFiles.open(
      {
        ...base,
        files: { ...base.files, list: (id: string) => base.files.list(id), applyChecked: async () => Promise.reject(new Error("disk I/O")) } as unknown as Storage["files"],
      },
      "w1",
      { persistDelayMs: 5 },
    );
    const failures: Error[] = [];
    files.onDidFailToPersist((error) => failures.push(error));
    files.writeSync("a.txt", "a");
    expect(files.pendingPaths()).toEqual(["a.txt"]);
    await vi.waitFor(() => expect(failures).toHaveLength(1), { timeout: 10_000 });
    expect(failures[0]).toMatchObject({ code: "EIO", message: expect.stringContaining("disk I/O") });
    expect(await files.exists("a.txt")).toBe(false);
    expect(files.pendingWrites).toBe(0);
  });

  it("dispose() stores pending changes and refuses later writes", async () => {
    const storage = await freshStorage();
    const files = await WorkspaceFiles.open(storage, "w1", { persistDelayMs: 10_000 });
    await files.writeFile("late.txt", "late");
    files.dispose();
    await vi.waitFor(async () => expect((await storage.files.get("w1", "late.txt"))?.data).toBe("late"), { timeout: 10_000 });
    await expect(files.writeFile("after.txt", "x")).rejects.toMatchObject({ code: "ECLOSED" });
  });

  it("skips stored records that cannot fit the tree and adds records for implied folders", async () => {
    const storage = await freshStorage();
    const record = (path: string, data = "x"): FileRecord => ({ v: RECORD_VERSION, workspaceId: "w1", path, kind: "file", data, mtime: 1 });
    await storage.files.apply("w1", [record("a"), record("a/b"), record("x/y/z.txt")], []);
    const invalid: unknown[] = [];
    const files = await WorkspaceFiles.open(storage, "w1", { onInvalidRecord: (e) => invalid.push(e) });
    expect(files.snapshotPaths().sort()).toEqual(["a", "x", "x/y", "x/y/z.txt"]);
    expect(invalid).toHaveLength(1);
    await files.flush();
    expect(await storedPaths(storage, "w1")).toContain("dir:x/y");
  });
});

describe("WorkspaceFiles read-only workspaces", () => {
  it("refuses every change in a workspace whose record is read-only, with a message naming Continue", async () => {
    const storage = await openStorage({ name: `ro-${Math.random()}` });
    await storage.workspaces.put({ v: 1, id: "shared", name: "shared", createdAt: 1, updatedAt: 1, readOnly: true });
    await storage.files.apply("shared", [{ v: 1, workspaceId: "shared", path: "a.txt", kind: "file", data: "one", mtime: 1 }], []);
    const files = await WorkspaceFiles.open(storage, "shared");
    expect(files.readOnly).toBe(true);
    expect(await files.readText("a.txt")).toBe("one");
    await expect(files.writeFile("a.txt", "two")).rejects.toThrow(/read-only shared session.*Continue/);
    await expect(files.mkdir("dir")).rejects.toThrow(/read-only/);
    await expect(files.remove("a.txt")).rejects.toThrow(/read-only/);
    await expect(files.rename("a.txt", "b.txt")).rejects.toThrow(/read-only/);
    expect(await files.readText("a.txt")).toBe("one");
    files.dispose();
  });
});
