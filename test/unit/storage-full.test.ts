// Full browser storage is an honest error, like a full disk: the terminal command fails with
// "No space left on device" and a non-zero exit, the agent's write and edit tools fail with that
// message, the editor's save fails and keeps the tab dirty; nothing refused stays in the workspace.
import { afterEach, describe, expect, it } from "vitest";
import { runTool } from "../../src/agent/tools/wrapper";
import { readTool } from "../../src/agent/tools/read";
import { writeTool } from "../../src/agent/tools/write";
import { editTool } from "../../src/agent/tools/edit";
import { StorageQuotaError, type Storage } from "../../src/storage";
import { EditorDocuments, type BufferFactory } from "../../src/ui/editor";
import { createToolHarness, type ToolHarness } from "../support/tool-context";
import { MemoryBuffer } from "../support/memory-buffer";

/** Makes the storage's file writes fail as a full quota does, until `space()` is called. */
function fillStorage(storage: Storage): { space(): void } {
  const files = storage.files as Storage["files"] & { applyChecked: Storage["files"]["applyChecked"] };
  const real = files.applyChecked.bind(files);
  files.applyChecked = async () => {
    throw new StorageQuotaError(new DOMException("The quota has been exceeded.", "QuotaExceededError"));
  };
  return { space: () => (files.applyChecked = real) };
}

let harness: ToolHarness;
afterEach(async () => harness?.dispose());

describe("storage full: the terminal", () => {
  it("a command whose write cannot be stored fails with No space left on device and a non-zero exit", async () => {
    harness = await createToolHarness({ files: { "kept.txt": "kept\n" } });
    const full = fillStorage(harness.storage);
    const write = await harness.runtime.exec("echo hello > new.txt");
    expect(write.exitCode).not.toBe(0);
    expect(write.output).toMatch(/No space left on device/);
    const chained = await harness.runtime.exec("echo more >> kept.txt && echo 'not reached'");
    expect(chained.exitCode).not.toBe(0);
    expect(chained.output).toMatch(/No space left on device/);
    expect(chained.output).not.toContain("not reached");
    const mkdir = await harness.runtime.exec("mkdir folder");
    expect(mkdir.exitCode).not.toBe(0);
    expect(mkdir.output).toMatch(/No space left on device/);
    // Nothing the commands were refused is in the workspace, and storage agrees.
    expect(await harness.files.exists("new.txt")).toBe(false);
    expect(await harness.files.exists("folder")).toBe(false);
    expect(await harness.files.readText("kept.txt")).toBe("kept\n");
    full.space();
    const again = await harness.runtime.exec("echo hello > new.txt");
    expect(again.exitCode).toBe(0);
    expect((await harness.storage.files.get(harness.files.workspaceId, "new.txt"))?.data).toBe("hello\n");
  });
});

describe("storage full: the agent's tools", () => {
  it("write and edit fail with the storage error the model can read, and change nothing", async () => {
    harness = await createToolHarness({ files: { "a.txt": "one\n" } });
    await runTool(readTool, { filePath: "a.txt" }, harness.context);
    fillStorage(harness.storage);
    await expect(runTool(writeTool, { filePath: "b.txt", content: "new\n" }, harness.context)).rejects.toThrow(/^No space left on device/);
    await expect(runTool(editTool, { filePath: "a.txt", oldString: "one", newString: "two" }, harness.context)).rejects.toThrow(
      /No space left on device/,
    );
    expect(await harness.files.exists("b.txt")).toBe(false);
    expect(await harness.files.readText("a.txt")).toBe("one\n");
  });
});

describe("storage full: the editor", () => {
  it("save says it failed, keeps the tab dirty with the typed text, and saves once space is back", async () => {
    harness = await createToolHarness({ files: { "notes.txt": "first" } });
    const errors: string[] = [];
    const buffers: BufferFactory = { create: (path, text) => new MemoryBuffer(path, text) };
    const documents = new EditorDocuments({
      files: harness.files,
      loadBuffers: async () => buffers,
      askUnsaved: async () => "cancel",
      onError: (error, context) => errors.push(`${context}: ${(error as Error).message}`),
    });
    try {
      await documents.open("notes.txt");
      const full = fillStorage(harness.storage);
      documents.buffer("notes.txt")!.setValue("first and more");
      expect(await documents.save("notes.txt")).toBe(false);
      expect(errors).toEqual([expect.stringMatching(/^Could not save notes\.txt: No space left on device/)]);
      await new Promise((resolve) => setTimeout(resolve, 5));
      await documents.idle();
      expect(documents.tab("notes.txt")).toMatchObject({ dirty: true, conflict: false });
      expect(documents.buffer("notes.txt")!.getValue()).toBe("first and more");
      expect(await harness.files.readText("notes.txt")).toBe("first");
      full.space();
      expect(await documents.save("notes.txt")).toBe(true);
      expect(documents.tab("notes.txt")).toMatchObject({ dirty: false });
      expect((await harness.storage.files.get(harness.files.workspaceId, "notes.txt"))?.data).toBe("first and more");
    } finally {
      documents.dispose();
    }
  });
});
