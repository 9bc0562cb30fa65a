// apply_patch: the format parser, hunk matching (exact, trailing-whitespace, trimmed), clear errors,
// and the all-or-nothing tool over the real browser runtime. The matching rules of issue 34 (one
// place or refuse, anchors bound the search) are in apply-patch-matching.test.ts.
import { afterEach, describe, expect, it } from "vitest";
import { applyChunks, parsePatch, PatchError } from "../../src/agent/tools/apply-patch-format";
import { applyPatchTool } from "../../src/agent/tools/apply-patch";
import { runTool } from "../../src/agent/tools/wrapper";
import { PermissionRejectedError } from "../../src/agent/tools/tool";
import { createToolHarness, type ToolHarness } from "../support/tool-context";

let harness: ToolHarness | undefined;
afterEach(async () => {
  await harness?.dispose();
  harness = undefined;
});

/** Records a read of each path, as the read tool does (apply_patch checks read-before-write). */
async function markRead(h: ToolHarness, ...paths: string[]): Promise<void> {
  for (const path of paths) h.context.fileTimes.markRead(path, (await h.files.stat(path))!.mtime);
}

const patch = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n");

function update(path: string, original: string, ...hunk: string[]): string {
  const ops = parsePatch(patch(`*** Update File: ${path}`, ...hunk));
  const op = ops[0]!;
  if (op.kind !== "update") throw new Error("expected an update");
  return applyChunks(path, original, op.chunks);
}

describe("parsePatch", () => {
  it("reads add, delete, update and move sections", () => {
    const ops = parsePatch(
      patch("*** Add File: a.txt", "+one", "+two", "*** Delete File: b.txt", "*** Update File: c.txt", "*** Move to: d.txt", "@@ def f():", " x", "-y", "+z", "*** End of File"),
    );
    expect(ops).toEqual([
      { kind: "add", path: "a.txt", content: "one\ntwo\n" },
      { kind: "delete", path: "b.txt" },
      { kind: "update", path: "c.txt", moveTo: "d.txt", chunks: [{ anchors: ["def f():"], endOfFile: true, lines: [{ kind: " ", text: "x" }, { kind: "-", text: "y" }, { kind: "+", text: "z" }] }] },
    ]);
  });

  it("accepts the heredoc form and CRLF", () => {
    const ops = parsePatch(`apply_patch <<'EOF'\r\n${patch("*** Delete File: x")}\r\nEOF\r\n`);
    expect(ops).toEqual([{ kind: "delete", path: "x" }]);
  });

  it("explains malformed patches", () => {
    expect(() => parsePatch("*** Update File: a")).toThrow(/must start with "\*\*\* Begin Patch"/);
    expect(() => parsePatch("*** Begin Patch\n*** Delete File: a")).toThrow(/must end with "\*\*\* End Patch"/);
    expect(() => parsePatch(patch("*** Add File: a", "no plus"))).toThrow(/must start with "\+" \(line 3 of the patch/);
    expect(() => parsePatch(patch("*** Update File: a", "@@", "?weird"))).toThrow(/Unexpected line 4 of the patch: "\?weird"/);
    expect(() => parsePatch(patch("*** Frobnicate: a"))).toThrow(/Expected "\*\*\* Add File: "/);
    expect(() => parsePatch(patch())).toThrow(/no file operations/);
  });
});

describe("applyChunks", () => {
  const source = "def f():\n    a = 1\n    return a\n\ndef g():\n    a = 1\n    return a\n";

  it("applies hunks in order, using @@ lines to find the place", () => {
    const result = update("m.py", source, "@@ def g():", "     a = 1", "-    return a", "+    return a + 1");
    expect(result).toBe("def f():\n    a = 1\n    return a\n\ndef g():\n    a = 1\n    return a + 1\n");
  });

  it("matches with trailing whitespace ignored, then trimmed, keeping the file's context lines", () => {
    const trailing = update("m.py", "x = 1   \ny = 2\n", " x = 1", "-y = 2", "+y = 3");
    expect(trailing).toBe("x = 1   \ny = 3\n");
    // Trimmed pass: the patch lost the indentation; added lines get the file's indentation back.
    const trimmed = update("m.py", source, "@@ def g():", " a = 1", "-return a", "+return a * 2");
    expect(trimmed).toBe("def f():\n    a = 1\n    return a\n\ndef g():\n    a = 1\n    return a * 2\n");
  });

  it("keeps CRLF line endings, a missing final newline and a BOM", () => {
    expect(update("w.txt", "\uFEFFa\r\nb\r\n", " a", "-b", "+c")).toBe("\uFEFFa\r\nc\r\n");
    expect(update("n.txt", "a\nb", " a", "-b", "+c")).toBe("a\nc");
  });

  it("honours End of File", () => {
    expect(update("e.txt", "x\ny\nx\n", "-x", "+z", "*** End of File")).toBe("x\ny\nz\n");
  });

  it("says which hunk could not be found", () => {
    expect(() => update("m.py", source, "@@ def h():", " a = 1")).toThrow(/Could not find the line "@@ def h\(\):" of hunk 1 of m\.py/);
    expect(() => update("m.py", source, " nothing like this", "-at all", "+x")).toThrow(/Could not find the lines of hunk 1 of m\.py:\nnothing like this\nat all/);
  });
});

describe("apply_patch tool", () => {
  it("adds, updates, moves and deletes files in one patch", async () => {
    harness = await createToolHarness({ files: { "src/a.ts": "export const a = 1;\nexport const b = 2;\n", "old.txt": "bye\n", "src/m.ts": "m\n" } });
    await markRead(harness, "src/a.ts", "old.txt", "src/m.ts");
    const result = await runTool(
      applyPatchTool,
      {
        patchText: patch(
          "*** Add File: src/new.ts",
          "+export const n = 0;",
          "*** Update File: src/a.ts",
          "@@",
          " export const a = 1;",
          "-export const b = 2;",
          "+export const b = 3;",
          "*** Update File: src/m.ts",
          "*** Move to: lib/m.ts",
          "-m",
          "+moved",
          "*** Delete File: old.txt",
        ),
      },
      harness.context,
    );
    expect(result.output).toBe("Success. Updated the following files:\nA src/new.ts\nM src/a.ts\nM src/m.ts -> lib/m.ts\nD old.txt");
    expect(await harness.files.readText("src/new.ts")).toBe("export const n = 0;\n");
    expect(await harness.files.readText("src/a.ts")).toBe("export const a = 1;\nexport const b = 3;\n");
    expect(await harness.files.readText("lib/m.ts")).toBe("moved\n");
    expect(await harness.files.exists("src/m.ts")).toBe(false);
    expect(await harness.files.exists("old.txt")).toBe(false);
    expect(harness.asks).toHaveLength(1);
    expect(harness.asks[0]).toMatchObject({ permission: "edit", patterns: ["src/new.ts", "src/a.ts", "src/m.ts", "lib/m.ts", "old.txt"] });
    expect(harness.asks[0]!.metadata.diff).toContain("+export const b = 3;");
    expect(harness.context.fileTimes.lastRead("src/a.ts")).toBe((await harness.files.stat("src/a.ts"))!.mtime);
  });

  it("writes nothing when any hunk fails", async () => {
    harness = await createToolHarness({ files: { "a.txt": "one\n", "b.txt": "two\n" } });
    await markRead(harness, "a.txt", "b.txt");
    const text = patch("*** Update File: a.txt", "-one", "+ONE", "*** Update File: b.txt", "-three", "+THREE", "*** Add File: c.txt", "+c");
    await expect(runTool(applyPatchTool, { patchText: text }, harness.context)).rejects.toThrow(/Could not find the lines of hunk 1 of b\.txt/);
    expect(await harness.files.readText("a.txt")).toBe("one\n");
    expect(await harness.files.exists("c.txt")).toBe(false);
    expect(harness.asks).toHaveLength(0);
  });

  it("refuses adding an existing file, updating a missing one and moving onto a file", async () => {
    harness = await createToolHarness({ files: { "a.txt": "a\n", "b.txt": "b\n" } });
    await markRead(harness, "a.txt");
    await expect(runTool(applyPatchTool, { patchText: patch("*** Add File: a.txt", "+x") }, harness.context)).rejects.toThrow(/already exists/);
    await expect(runTool(applyPatchTool, { patchText: patch("*** Update File: zz.txt", "-a", "+b") }, harness.context)).rejects.toThrow(/does not exist/);
    await expect(runTool(applyPatchTool, { patchText: patch("*** Update File: a.txt", "*** Move to: b.txt", "-a", "+c") }, harness.context)).rejects.toThrow(/target already exists/);
    await expect(runTool(applyPatchTool, { patchText: patch("*** Add File: /etc/x", "+x") }, harness.context)).rejects.toThrow(/outside the workspace/);
  });

  it("writes nothing when the user rejects", async () => {
    harness = await createToolHarness({ files: { "a.txt": "a\n" }, onAsk: () => new PermissionRejectedError("edit") });
    await markRead(harness, "a.txt");
    await expect(runTool(applyPatchTool, { patchText: patch("*** Update File: a.txt", "-a", "+b") }, harness.context)).rejects.toBeInstanceOf(PermissionRejectedError);
    expect(await harness.files.readText("a.txt")).toBe("a\n");
  });

  it("refuses to update or delete a file the session has not read, or that changed since (issue 3, item 9)", async () => {
    harness = await createToolHarness({ files: { "a.txt": "a\n", "b.txt": "b\n" } });
    const updateA = patch("*** Update File: a.txt", "-a", "+A");
    await expect(runTool(applyPatchTool, { patchText: updateA }, harness.context)).rejects.toThrow(/You must read a\.txt with the read tool before you patch it/);
    await expect(runTool(applyPatchTool, { patchText: patch("*** Delete File: b.txt") }, harness.context)).rejects.toThrow(/before you delete it/);
    // One unread file in a patch stops the whole patch, before any ask.
    await markRead(harness, "a.txt");
    await expect(runTool(applyPatchTool, { patchText: patch("*** Update File: a.txt", "-a", "+A", "*** Delete File: b.txt") }, harness.context)).rejects.toThrow(PatchError);
    expect(await harness.files.exists("b.txt")).toBe(true);
    expect(harness.asks).toHaveLength(0);
    // Changed by someone else after the read: read again first.
    harness.files.setMtime("a.txt", (await harness.files.stat("a.txt"))!.mtime + 1000);
    await expect(runTool(applyPatchTool, { patchText: updateA }, harness.context)).rejects.toThrow(/modified since you last read it/);
    await markRead(harness, "a.txt");
    await runTool(applyPatchTool, { patchText: updateA }, harness.context);
    expect(await harness.files.readText("a.txt")).toBe("A\n");
    // Adding a new file needs no read.
    await runTool(applyPatchTool, { patchText: patch("*** Add File: c.txt", "+c") }, harness.context);
    expect(await harness.files.readText("c.txt")).toBe("c\n");
  });

  it("surfaces parse errors as PatchError", async () => {
    harness = await createToolHarness();
    await expect(runTool(applyPatchTool, { patchText: "nonsense" }, harness.context)).rejects.toBeInstanceOf(PatchError);
  });
});
