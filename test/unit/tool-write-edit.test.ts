// write and edit over the real browser runtime: read-before-write, permission asks with diffs,
// creation with an empty oldString, rejections writing nothing, and fuzzy edits through the tool.
import { afterEach, describe, expect, it } from "vitest";
import { runTool } from "../../src/agent/tools/wrapper";
import { readTool } from "../../src/agent/tools/read";
import { writeTool } from "../../src/agent/tools/write";
import { editTool } from "../../src/agent/tools/edit";
import { PermissionRejectedError } from "../../src/agent/tools/tool";
import { createToolHarness, type ToolHarness } from "../support/tool-context";

let harness: ToolHarness;
afterEach(async () => harness?.dispose());

/** Pretends the user saved the file a moment later. */
async function touchedByUser(path: string, text: string) {
  const before = (await harness.files.stat(path))!.mtime;
  await harness.files.writeFile(path, text, { source: "editor" });
  harness.files.setMtime(path, before + 1000);
}

describe("write", () => {
  it("creates a new file and asks edit with the diff", async () => {
    harness = await createToolHarness();
    const result = await runTool(writeTool, { filePath: "src/new.ts", content: "export const x = 1;\n" }, harness.context);
    expect(await harness.files.readText("src/new.ts")).toBe("export const x = 1;\n");
    expect(result.output).toBe("Created src/new.ts.");
    expect(harness.asks[0]).toMatchObject({ permission: "edit", patterns: ["src/new.ts"], always: ["*"] });
    expect(harness.asks[0]!.metadata.diff).toContain("+export const x = 1;");
    expect(result.metadata).toMatchObject({ additions: 1, deletions: 0, created: true });
  });

  it("refuses to overwrite a file this session has not read, then allows it after a read", async () => {
    harness = await createToolHarness({ files: { "a.txt": "old\n" } });
    await expect(runTool(writeTool, { filePath: "a.txt", content: "new\n" }, harness.context)).rejects.toThrow(/must read a\.txt .* before you overwrite it/);
    expect(await harness.files.readText("a.txt")).toBe("old\n");
    await runTool(readTool, { filePath: "a.txt" }, harness.context);
    const result = await runTool(writeTool, { filePath: "a.txt", content: "new\n" }, harness.context);
    expect(result.metadata.diff).toContain("-old\n+new");
    expect(await harness.files.readText("a.txt")).toBe("new\n");
  });

  it("refuses when the file changed since it was read", async () => {
    harness = await createToolHarness({ files: { "a.txt": "old\n" } });
    await runTool(readTool, { filePath: "a.txt" }, harness.context);
    await touchedByUser("a.txt", "user's version\n");
    await expect(runTool(writeTool, { filePath: "a.txt", content: "new\n" }, harness.context)).rejects.toThrow(/modified since you last read it/);
    expect(await harness.files.readText("a.txt")).toBe("user's version\n");
  });

  it("writes nothing when the user rejects", async () => {
    harness = await createToolHarness({ onAsk: () => new PermissionRejectedError("edit") });
    await expect(runTool(writeTool, { filePath: "x.txt", content: "x" }, harness.context)).rejects.toBeInstanceOf(PermissionRejectedError);
    expect(await harness.files.exists("x.txt")).toBe(false);
  });

  it("refuses folders and the root", async () => {
    harness = await createToolHarness({ files: { "src/a.ts": "" } });
    await expect(runTool(writeTool, { filePath: "src", content: "x" }, harness.context)).rejects.toThrow(/is a folder/);
    await expect(runTool(writeTool, { filePath: ".", content: "x" }, harness.context)).rejects.toThrow(/not the workspace root/);
  });
});

describe("edit", () => {
  const PY = "class A:\n    def f(self):\n        return 1\n";

  it("refuses an unread file, then edits after a read and returns a unified diff", async () => {
    harness = await createToolHarness({ files: { "a.py": PY } });
    await expect(runTool(editTool, { filePath: "a.py", oldString: "return 1", newString: "return 2" }, harness.context)).rejects.toThrow(/must read a\.py/);
    await runTool(readTool, { filePath: "a.py" }, harness.context);
    const result = await runTool(editTool, { filePath: "a.py", oldString: "return 1", newString: "return 2" }, harness.context);
    expect(await harness.files.readText("a.py")).toBe(PY.replace("return 1", "return 2"));
    expect(result.metadata.diff).toBe("--- a/a.py\n+++ b/a.py\n@@ -1,3 +1,3 @@\n class A:\n     def f(self):\n-        return 1\n+        return 2\n");
    expect(harness.asks.at(-1)).toMatchObject({ permission: "edit", patterns: ["a.py"], metadata: { diff: result.metadata.diff } });
  });

  it("allows consecutive edits without re-reading (its own writes count as read)", async () => {
    harness = await createToolHarness({ files: { "a.py": PY } });
    await runTool(readTool, { filePath: "a.py" }, harness.context);
    await runTool(editTool, { filePath: "a.py", oldString: "return 1", newString: "return 2" }, harness.context);
    await runTool(editTool, { filePath: "a.py", oldString: "return 2", newString: "return 3" }, harness.context);
    expect(await harness.files.readText("a.py")).toContain("return 3");
  });

  it("keeps Python indentation through a fuzzy match in the tool", async () => {
    harness = await createToolHarness({ files: { "a.py": PY } });
    await runTool(readTool, { filePath: "a.py" }, harness.context);
    await runTool(editTool, { filePath: "a.py", oldString: "def f(self):\n    return 1", newString: "def f(self):\n    x = 1\n    return x" }, harness.context);
    expect(await harness.files.readText("a.py")).toBe("class A:\n    def f(self):\n        x = 1\n        return x\n");
  });

  it("creates a file with an empty oldString, and refuses when it exists", async () => {
    harness = await createToolHarness({ files: { "exists.txt": "x" } });
    const created = await runTool(editTool, { filePath: "notes/todo.md", oldString: "", newString: "# Todo\n" }, harness.context);
    expect(created.output).toBe("Created notes/todo.md.");
    expect(await harness.files.readText("notes/todo.md")).toBe("# Todo\n");
    await expect(runTool(editTool, { filePath: "exists.txt", oldString: "", newString: "y" }, harness.context)).rejects.toThrow(/already exists/);
  });

  it("reports a missing file, identical strings and not-found text", async () => {
    harness = await createToolHarness({ files: { "a.txt": "alpha\nbeta\n" } });
    await expect(runTool(editTool, { filePath: "b.txt", oldString: "x", newString: "y" }, harness.context)).rejects.toThrow(/File not found: b\.txt/);
    await expect(runTool(editTool, { filePath: "a.txt", oldString: "x", newString: "x" }, harness.context)).rejects.toThrow(/identical/);
    await runTool(readTool, { filePath: "a.txt" }, harness.context);
    await expect(runTool(editTool, { filePath: "a.txt", oldString: "gamma", newString: "delta" }, harness.context)).rejects.toThrow(/not found/);
  });

  it("does not overwrite a file the user saved while the permission card was open", async () => {
    harness = await createToolHarness({
      files: { "a.txt": "one\n" },
      onAsk: async (request) => {
        if (request.permission === "edit") await touchedByUser("a.txt", "user typed this\n");
        return undefined;
      },
    });
    await runTool(readTool, { filePath: "a.txt" }, harness.context);
    await expect(runTool(editTool, { filePath: "a.txt", oldString: "one", newString: "two" }, harness.context)).rejects.toThrow(/changed while waiting for permission/);
    expect(await harness.files.readText("a.txt")).toBe("user typed this\n");
  });

  it("keeps a CRLF file CRLF and a BOM through the tool", async () => {
    harness = await createToolHarness({ files: { "win.txt": "\uFEFFa\r\nb\r\n" } });
    await runTool(readTool, { filePath: "win.txt" }, harness.context);
    await runTool(editTool, { filePath: "win.txt", oldString: "a\nb", newString: "a\nB\nc" }, harness.context);
    expect(await harness.files.readText("win.txt")).toBe("\uFEFFa\r\nB\r\nc\r\n");
  });
});
