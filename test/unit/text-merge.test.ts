// The three-way line merge behind "two tabs never lose a byte" (src/base/text-merge.ts) and the
// compare-and-set of file records in one IndexedDB transaction (FileRepository.applyChecked).
import { describe, expect, it } from "vitest";
import { mergeText, splitLines } from "../../src/base";
import { RECORD_VERSION, fileRecord, openStorage, resolveWrite, type FileRecord } from "../../src/storage";

const file = (path: string, data: string | Uint8Array, mtime = 1): FileRecord => ({ ...fileRecord({ workspaceId: "w", path, kind: "file", mtime }), data });

describe("mergeText", () => {
  it("keeps lines byte for byte when splitting", () => {
    for (const text of ["", "a", "a\n", "a\r\nb", "\n\n", "x\ny\n"]) expect(splitLines(text).join("")).toBe(text);
  });

  it("takes changes to different lines from both sides", () => {
    const base = "one\ntwo\nthree\nfour\n";
    expect(mergeText(base, "ONE\ntwo\nthree\nfour\n", "one\ntwo\nthree\nFOUR\n")).toEqual({ text: "ONE\ntwo\nthree\nFOUR\n", conflicts: 0 });
    // An insertion next to a change on the other side, and a deletion.
    expect(mergeText(base, "one\ntwo\nnew\nthree\nfour\n", "one\nthree\nfour\n")).toEqual({ text: "one\nnew\nthree\nfour\n", conflicts: 0 });
  });

  it("takes the same change made on both sides once", () => {
    expect(mergeText("a\nb\n", "a\nB\n", "a\nB\n")).toEqual({ text: "a\nB\n", conflicts: 0 });
    expect(mergeText("a\nb\nc\n", "a\nB\nc\nd\n", "a\nB\nc\n")).toEqual({ text: "a\nB\nc\nd\n", conflicts: 0 });
  });

  it("puts both changes to the same line between conflict markers", () => {
    const result = mergeText("a\nb\nc\n", "a\nmine\nc\n", "a\ntheirs\nc\n", { ours: "editor", theirs: "disk" });
    expect(result).toEqual({ text: "a\n<<<<<<< editor\nmine\n=======\ntheirs\n>>>>>>> disk\nc\n", conflicts: 1 });
    // A side without a final line break still gets its marker on a line of its own.
    expect(mergeText("x", "y", "z").text).toBe("<<<<<<< ours\ny\n=======\nz\n>>>>>>> theirs\n");
  });

  it("appends after an append (two >> writers, or a typed last line against one) without a conflict", () => {
    expect(mergeText("log\n", "log\nA1\n", "log\nB1\n")).toEqual({ text: "log\nB1\nA1\n", conflicts: 0 });
    expect(mergeText("log\n", "log\nA1\nA2\n", "log\nB1\n")).toEqual({ text: "log\nB1\nA1\nA2\n", conflicts: 0 });
    // Their line was typed without a line break: ours still starts a line of its own.
    expect(mergeText("log\n", "log\nA1\n", "log\nB57")).toEqual({ text: "log\nB57\nA1\n", conflicts: 0 });
    // The same change on both sides is taken once, as in any three-way merge.
    expect(mergeText("log\n", "log\nsame\n", "log\nsame\n").text).toBe("log\nsame\n");
  });

  it("a file created on both sides with different contents is a conflict, not a concatenation", () => {
    expect(mergeText("", "a\n", "b\n").conflicts).toBe(1);
  });
});

describe("resolveWrite (compare-and-set)", () => {
  const ours = file("f.txt", "base\nmine\n", 5);

  it("writes when storage still holds the base, or when the base is not known", () => {
    expect(resolveWrite({ path: "f.txt", record: ours, base: { kind: "file", data: "base\n" } }, file("f.txt", "base\n"))).toEqual({ store: ours, outcome: "written" });
    expect(resolveWrite({ path: "f.txt", record: ours, base: undefined }, file("f.txt", "other\n"))).toEqual({ store: ours, outcome: "written" });
    expect(resolveWrite({ path: "f.txt", record: ours, base: null }, undefined)).toEqual({ store: ours, outcome: "written" });
  });

  it("merges with what another tab stored since the base", () => {
    const result = resolveWrite({ path: "f.txt", record: ours, base: { kind: "file", data: "base\n" } }, file("f.txt", "base\ntheirs\n", 7));
    expect(result.outcome).toBe("merged");
    expect(result.store).toMatchObject({ data: "base\ntheirs\nmine\n", mtime: 7 });
  });

  it("keeps a file another tab changed instead of deleting it, and recreates one it deleted", () => {
    expect(resolveWrite({ path: "f.txt", record: null, base: { kind: "file", data: "base\n" } }, file("f.txt", "changed\n"))).toEqual({ store: undefined, outcome: "kept" });
    expect(resolveWrite({ path: "f.txt", record: ours, base: { kind: "file", data: "base\n" } }, undefined)).toEqual({ store: ours, outcome: "written" });
  });

  it("replaces bytes it cannot merge, and says so", () => {
    const bytes = file("f.bin", new Uint8Array([1, 2]));
    expect(resolveWrite({ path: "f.bin", record: bytes, base: { kind: "file", data: new Uint8Array([1]) } }, file("f.bin", new Uint8Array([3])))).toEqual({ store: bytes, outcome: "replaced" });
  });
});

describe("FileRepository.applyChecked", () => {
  it("compares each write with what is stored inside one transaction: two writers from one base both land", async () => {
    const storage = await openStorage({ name: `cas-${Date.now()}-${Math.random()}` });
    await storage.files.apply("w", [file("log.txt", "start\n")], []);
    const base = { kind: "file" as const, data: "start\n" };
    // Both were made from "start\n"; neither knows of the other.
    const [first, second] = await Promise.all([
      storage.files.applyChecked("w", [{ path: "log.txt", record: file("log.txt", "start\nA\n"), base }]),
      storage.files.applyChecked("w", [{ path: "log.txt", record: file("log.txt", "start\nB\n"), base }]),
    ]);
    expect(first![0]!.outcome).toBe("written");
    expect(second![0]!).toMatchObject({ outcome: "merged", stored: { data: "start\nA\nB\n" } });
    expect((await storage.files.get("w", "log.txt"))?.data).toBe("start\nA\nB\n");
    expect((await storage.files.get("w", "log.txt"))?.v).toBe(RECORD_VERSION);
    storage.close();
  });

  it("stores both sides between markers when both changed the same line", async () => {
    const storage = await openStorage({ name: `cas-${Date.now()}-${Math.random()}` });
    await storage.files.apply("w", [file("a.txt", "x\n")], []);
    const base = { kind: "file" as const, data: "x\n" };
    await storage.files.applyChecked("w", [{ path: "a.txt", record: file("a.txt", "first\n"), base }]);
    const [result] = await storage.files.applyChecked("w", [{ path: "a.txt", record: file("a.txt", "second\n"), base }]);
    expect(result).toMatchObject({ outcome: "conflict" });
    expect((await storage.files.get("w", "a.txt"))?.data).toBe("<<<<<<< this tab\nsecond\n=======\nfirst\n>>>>>>> another tab\n");
    storage.close();
  });
});
