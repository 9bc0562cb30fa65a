// The editor's open documents over a real WorkspaceFiles (fake-indexeddb) with in-memory buffers:
// dirty state, saving, and files changing underneath open tabs.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WorkspaceFiles, type FileChange } from "../../src/runtime";
import { openStorage, type Storage } from "../../src/storage";
import { EditorDocuments, type BufferFactory, type UnsavedChoice } from "../../src/ui/editor";
import { MemoryBuffer } from "../support/memory-buffer";

class MemoryBuffers implements BufferFactory {
  readonly all: MemoryBuffer[] = [];
  create(path: string, text: string) {
    const buffer = new MemoryBuffer(path, text);
    this.all.push(buffer);
    return buffer;
  }
  get live() {
    return this.all.filter((b) => !b.disposed);
  }
}

let counter = 0;
let storage: Storage;
let files: WorkspaceFiles;
let buffers: MemoryBuffers;
let documents: EditorDocuments;
let answers: UnsavedChoice[];
let asked: string[];
let errors: string[];

beforeEach(async () => {
  storage = await openStorage({ name: `ui-editor-documents-${counter++}-${Date.now()}` });
  files = await WorkspaceFiles.open(storage, "ws1", { persistDelayMs: 1 });
  buffers = new MemoryBuffers();
  answers = [];
  asked = [];
  errors = [];
  documents = new EditorDocuments({
    files,
    loadBuffers: async () => buffers,
    askUnsaved: async (path) => {
      asked.push(path);
      return answers.shift() ?? "cancel";
    },
    onError: (error, context) => errors.push(`${context}: ${String(error)}`),
  });
});

afterEach(async () => {
  documents.dispose();
  await files.close();
  storage.close();
});

const buffer = (path: string) => documents.buffer(path) as MemoryBuffer;
/** Lets the change batch fire (one per tick) and the documents service handle it. */
const settle = async () => {
  await new Promise((resolve) => setTimeout(resolve, 5));
  await documents.idle();
};

/**
 * Editor saves reach memory at once and then wait (storing them takes a while) until `release`;
 * `writeFile` writes as another writer does, unheld. The next save after the release is not held.
 */
function holdEditorSaves(): { writeFile: WorkspaceFiles["writeFile"]; release: () => void; written: Promise<void> } {
  const writeFile = files.writeFile.bind(files);
  let resume!: () => void;
  let reached!: () => void;
  const written = new Promise<void>((resolve) => (reached = resolve));
  files.writeFile = async (...args: Parameters<typeof files.writeFile>) => {
    await writeFile(...args);
    if (args[2]?.source === "editor") {
      reached();
      await new Promise<void>((resolve) => (resume = resolve));
    }
  };
  return {
    written,
    writeFile,
    release: () => {
      files.writeFile = writeFile;
      resume();
    },
  };
}

describe("EditorDocuments", () => {
  it("opens a text file in an active, clean tab", async () => {
    await files.writeFile("src/a.ts", "export const a = 1;\n");
    await documents.open("src/a.ts");
    expect(documents.tabs).toEqual([expect.objectContaining({ path: "src/a.ts", status: "text", dirty: false })]);
    expect(documents.active).toBe("src/a.ts");
    expect(buffer("src/a.ts").getValue()).toBe("export const a = 1;\n");
  });

  it("opening an open file again only activates it", async () => {
    await files.writeFile("a.txt", "a");
    await files.writeFile("b.txt", "b");
    await documents.open("a.txt");
    await documents.open("b.txt");
    await documents.open("a.txt");
    expect(documents.tabs.map((t) => t.path)).toEqual(["a.txt", "b.txt"]);
    expect(documents.active).toBe("a.txt");
    expect(buffers.all).toHaveLength(2);
  });

  it("marks a tab dirty when edited and clean again when the text returns to the saved one", async () => {
    await files.writeFile("a.txt", "hello");
    await documents.open("a.txt");
    buffer("a.txt").type("!");
    expect(documents.tab("a.txt")?.dirty).toBe(true);
    buffer("a.txt").setValue("hello");
    expect(documents.tab("a.txt")?.dirty).toBe(false);
  });

  it("saves through the file service with source editor, and the tab is clean", async () => {
    await files.writeFile("a.txt", "hello");
    await documents.open("a.txt");
    const seen: FileChange[] = [];
    const sub = files.onDidChange((changes) => seen.push(...changes));
    buffer("a.txt").type(" world");
    expect(await documents.save()).toBe(true);
    await settle();
    sub.dispose();
    expect(await files.readText("a.txt")).toBe("hello world");
    expect(documents.tab("a.txt")?.dirty).toBe(false);
    expect(seen).toContainEqual(expect.objectContaining({ path: "a.txt", type: "changed", source: "editor" }));
    // Persisted: a fresh service over the same database reads the saved text.
    await files.flush();
    const again = await WorkspaceFiles.open(storage, "ws1");
    expect(await again.readText("a.txt")).toBe("hello world");
    again.dispose();
  });

  it("a save that overwrites an already stored file survives a reload", async () => {
    await files.writeFile("a.txt", "stored");
    await files.flush();
    await documents.open("a.txt");
    buffer("a.txt").setValue("edited");
    await documents.save("a.txt");
    await files.flush();
    const again = await WorkspaceFiles.open(storage, "ws1");
    expect(await again.readText("a.txt")).toBe("edited");
    again.dispose();
  });

  it("saving a clean tab writes nothing (Ctrl+S on an unmodified file of a read-only share is not an error)", async () => {
    await files.writeFile("a.txt", "a");
    await files.close();
    files = await WorkspaceFiles.open(storage, "ws1", { persistDelayMs: 1, readOnly: true });
    const readOnlyDocs = new EditorDocuments({
      files,
      loadBuffers: async () => buffers,
      askUnsaved: async () => "cancel",
      onError: (error, context) => errors.push(`${context}: ${String(error)}`),
    });
    try {
      await readOnlyDocs.open("a.txt");
      expect(await readOnlyDocs.save("a.txt")).toBe(true);
      expect(errors).toEqual([]);
      // A real change still goes to the file service, which refuses it and says so.
      (readOnlyDocs.buffer("a.txt") as MemoryBuffer).type("!");
      expect(await readOnlyDocs.save("a.txt")).toBe(false);
      expect(errors).toEqual([expect.stringMatching(/^Could not save a\.txt: .*read-only/)]);
    } finally {
      readOnlyDocs.dispose();
    }
  });

  it("reports a failed save and keeps the tab dirty", async () => {
    await files.writeFile("a.txt", "x");
    await documents.open("a.txt");
    buffer("a.txt").type("y");
    await files.close(); // later writes are refused
    expect(await documents.save("a.txt")).toBe(false);
    expect(errors[0]).toMatch(/Could not save a\.txt/);
    expect(documents.tab("a.txt")?.dirty).toBe(true);
    files = await WorkspaceFiles.open(storage, "ws1");
  });

  it("reloads a clean tab when the file changes underneath it", async () => {
    await files.writeFile("a.txt", "one");
    await documents.open("a.txt");
    await files.writeFile("a.txt", "two", { source: "terminal" });
    await settle();
    expect(buffer("a.txt").getValue()).toBe("two");
    expect(documents.tab("a.txt")).toMatchObject({ dirty: false, conflict: false });
  });

  it("asks (keep mine / load theirs) when a dirty tab's file changes underneath it", async () => {
    await files.writeFile("a.txt", "base");
    await documents.open("a.txt");
    buffer("a.txt").setValue("mine");
    await files.writeFile("a.txt", "theirs", { source: "agent" });
    await settle();
    expect(documents.tab("a.txt")).toMatchObject({ dirty: true, conflict: true });
    expect(buffer("a.txt").getValue()).toBe("mine");

    documents.loadTheirs("a.txt");
    expect(buffer("a.txt").getValue()).toBe("theirs");
    expect(documents.tab("a.txt")).toMatchObject({ dirty: false, conflict: false });
  });

  it("keep mine leaves the unsaved text and the next save overwrites the file", async () => {
    await files.writeFile("a.txt", "base");
    await documents.open("a.txt");
    buffer("a.txt").setValue("mine");
    await files.writeFile("a.txt", "theirs", { source: "terminal" });
    await settle();
    documents.keepMine("a.txt");
    expect(documents.tab("a.txt")).toMatchObject({ dirty: true, conflict: false });
    // Typing back to their text makes the tab clean: "saved" is now their version.
    buffer("a.txt").setValue("theirs");
    expect(documents.tab("a.txt")?.dirty).toBe(false);
    buffer("a.txt").setValue("mine");
    await documents.save("a.txt");
    expect(await files.readText("a.txt")).toBe("mine");
  });

  it("a file changed by another writer while the save was being stored keeps the changed-on-disk choice", async () => {
    await files.writeFile("a.txt", "base");
    await documents.open("a.txt");
    // The write's own change notice may come after the open; let it pass so it is not taken for the save's.
    await settle();
    buffer("a.txt").setValue("mine");
    // The save's write is in memory at once; storing it takes a while, and the agent writes meanwhile.
    const { writeFile, release, written } = holdEditorSaves();
    const saving = documents.save("a.txt");
    await written;
    await writeFile("a.txt", "theirs", { source: "agent" });
    await settle();
    release();
    expect(await saving).toBe(true);
    // The file holds the agent's text: the tab must not say the user's text is saved.
    expect(await files.readText("a.txt")).toBe("theirs");
    expect(documents.tab("a.txt")).toMatchObject({ dirty: true, conflict: true });
    expect(buffer("a.txt").getValue()).toBe("mine");
    documents.keepMine("a.txt");
    await documents.save("a.txt");
    expect(await files.readText("a.txt")).toBe("mine");
  });

  it("a change on top of the save that lands while it is stored (a synced edit from another device) leaves the tab clean with both", async () => {
    await files.writeFile("a.txt", "one\ntwo\nthree\n");
    await documents.open("a.txt");
    await settle();
    buffer("a.txt").setValue("ONE\ntwo\nthree\n");
    const { writeFile, release, written } = holdEditorSaves();
    const saving = documents.save("a.txt");
    await written;
    // Sync writes the merge of this save and the other device's edit before the save is stored.
    await writeFile("a.txt", "ONE\ntwo\nTHREE\n", { source: "sync" });
    await settle();
    expect(documents.tab("a.txt")).toMatchObject({ conflict: true });
    release();
    expect(await saving).toBe(true);
    expect(documents.tab("a.txt")).toMatchObject({ dirty: false, conflict: false });
    expect(buffer("a.txt").getValue()).toBe("ONE\ntwo\nTHREE\n");
    expect(await files.readText("a.txt")).toBe("ONE\ntwo\nTHREE\n");
  });

  it("a live tab (shared text) saved while another device's keystrokes arrive is clean with them, and its next save (offline) works", async () => {
    await files.writeFile("a.txt", "one\ntwo\nthree\n");
    await documents.open("a.txt");
    await settle();
    const live = documents.setLive("a.txt");
    buffer("a.txt").setValue("ONE\ntwo\nthree\n");
    const { writeFile, release, written } = holdEditorSaves();
    const saving = documents.save("a.txt");
    await written;
    // While the save is stored, the other device types: y-monaco puts it in the buffer, sync writes the whole shared text.
    buffer("a.txt").setValue("ONE\ntwo\nTHREE\n");
    await writeFile("a.txt", "ONE\ntwo\nTHREE\n", { source: "sync" });
    await settle();
    release();
    expect(await saving).toBe(true);
    expect(documents.tab("a.txt")).toMatchObject({ dirty: false, conflict: false });
    // Offline now (nothing arrives): typing next to the other device's line and saving must work.
    buffer("a.txt").setValue("ONE\ntwo offline\nTHREE\n");
    expect(await documents.save("a.txt")).toBe(true);
    expect(documents.tab("a.txt")).toMatchObject({ dirty: false, conflict: false });
    expect(await files.readText("a.txt")).toBe("ONE\ntwo offline\nTHREE\n");
    live.dispose();
  });

  it("a live tab saved right after another device's keystroke, before its reload, merges nothing twice and is not refused", async () => {
    await files.writeFile("a.txt", "a\nb\nc\n");
    await documents.open("a.txt");
    await settle();
    const live = documents.setLive("a.txt");
    // The other device's keystroke: in the buffer through y-monaco, on disk through sync (announced a tick later).
    buffer("a.txt").setValue("a\nb\nC\n");
    files.writeSync("a.txt", "a\nb\nC\n", { source: "sync" });
    // This user types on the line above and saves at once.
    buffer("a.txt").setValue("a\nB\nC\n");
    expect(await documents.save("a.txt")).toBe(true);
    expect(documents.tab("a.txt")).toMatchObject({ dirty: false, conflict: false });
    expect(await files.readText("a.txt")).toBe("a\nB\nC\n");
    live.dispose();
  });

  it("a save made during a conflict on the same lines is refused and keeps the choice", async () => {
    await files.writeFile("a.txt", "base");
    await documents.open("a.txt");
    buffer("a.txt").setValue("mine");
    await files.writeFile("a.txt", "theirs", { source: "agent" });
    await settle();
    expect(documents.tab("a.txt")).toMatchObject({ conflict: true });
    expect(await documents.save("a.txt")).toBe(false);
    expect(await files.readText("a.txt")).toBe("theirs");
    expect(documents.tab("a.txt")).toMatchObject({ dirty: true, conflict: true });
    expect(buffer("a.txt").getValue()).toBe("mine");
  });

  it("a save merges a change on disk the tab had not heard of yet, instead of replacing it", async () => {
    await files.writeFile("a.txt", "one\ntwo\n");
    await documents.open("a.txt");
    buffer("a.txt").setValue("ONE\ntwo\n");
    // The terminal appends; its change notice has not reached the tab when Ctrl+S is pressed.
    files.writeSync("a.txt", "one\ntwo\nthree\n", { source: "terminal" });
    expect(await documents.save("a.txt")).toBe(true);
    await settle();
    expect(await files.readText("a.txt")).toBe("ONE\ntwo\nthree\n");
    expect(buffer("a.txt").getValue()).toBe("ONE\ntwo\nthree\n");
    expect(documents.tab("a.txt")).toMatchObject({ dirty: false, conflict: false });
  });

  it("a save after one that raced an append merges against what that save wrote: no line lost or repeated", async () => {
    await files.writeFile("log.txt", "log\n");
    await documents.open("log.txt");
    await settle();
    buffer("log.txt").setValue("log\nE1\n");
    const { writeFile, release, written } = holdEditorSaves();
    const saving = documents.save("log.txt");
    await written;
    // The terminal appends while the save is being stored: the tab sees a change on disk.
    await writeFile("log.txt", `${await files.readText("log.txt")}T1\n`, { source: "terminal" });
    await settle();
    release();
    expect(await saving).toBe(true);
    buffer("log.txt").setValue(`${buffer("log.txt").getValue()}E2\n`);
    expect(await documents.save("log.txt")).toBe(true);
    expect(await files.readText("log.txt")).toBe("log\nE1\nT1\nE2\n");
    expect(buffer("log.txt").getValue()).toBe("log\nE1\nT1\nE2\n");
  });

  it("a save that changed the same lines as a change on disk stops, keeps both, and asks", async () => {
    await files.writeFile("a.txt", "base\n");
    await documents.open("a.txt");
    buffer("a.txt").setValue("mine\n");
    files.writeSync("a.txt", "theirs\n", { source: "agent" });
    expect(await documents.save("a.txt")).toBe(false);
    await settle();
    expect(await files.readText("a.txt")).toBe("theirs\n");
    expect(buffer("a.txt").getValue()).toBe("mine\n");
    expect(documents.tab("a.txt")).toMatchObject({ dirty: true, conflict: true });
    expect(errors).toEqual([]);
    // The user's choice then decides: keep mine and save writes it.
    documents.keepMine("a.txt");
    expect(await documents.save("a.txt")).toBe(true);
    expect(await files.readText("a.txt")).toBe("mine\n");
  });

  it("does not raise a conflict for its own saves while the user keeps typing", async () => {
    await files.writeFile("a.txt", "a");
    await documents.open("a.txt");
    buffer("a.txt").setValue("ab");
    const saving = documents.save();
    buffer("a.txt").type("c");
    await saving;
    await settle();
    expect(documents.tab("a.txt")).toMatchObject({ conflict: false, dirty: true });
    expect(buffer("a.txt").getValue()).toBe("abc");
  });

  it("closes a clean tab whose file is deleted, and marks a dirty one", async () => {
    await files.writeFile("a.txt", "a");
    await files.writeFile("b.txt", "b");
    await documents.open("a.txt");
    await documents.open("b.txt");
    buffer("b.txt").type("!");
    await files.remove("a.txt", { source: "terminal" });
    await files.remove("b.txt", { source: "terminal" });
    await settle();
    expect(documents.tabs.map((t) => t.path)).toEqual(["b.txt"]);
    expect(documents.tab("b.txt")).toMatchObject({ deletedOnDisk: true, dirty: true });
    // Saving recreates the file.
    await documents.save("b.txt");
    expect(await files.readText("b.txt")).toBe("b!");
    expect(documents.tab("b.txt")?.deletedOnDisk).toBe(false);
  });

  it("a conflict is dropped when the file is then deleted: edits kept, only the deleted state remains", async () => {
    await files.writeFile("dirty.txt", "base");
    await documents.open("dirty.txt");
    buffer("dirty.txt").setValue("mine");
    await files.writeFile("dirty.txt", "outside", { source: "terminal" });
    await settle();
    expect(documents.tab("dirty.txt")).toMatchObject({ conflict: true });
    await files.remove("dirty.txt", { source: "terminal" });
    await settle();
    expect(documents.tab("dirty.txt")).toMatchObject({ conflict: false, deletedOnDisk: true, dirty: true });
    // A late "Load theirs" (a stale banner) must not load content that no longer exists.
    documents.loadTheirs("dirty.txt");
    expect(buffer("dirty.txt").getValue()).toBe("mine");
    await documents.save("dirty.txt");
    expect(await files.readText("dirty.txt")).toBe("mine");
    expect(documents.tab("dirty.txt")).toMatchObject({ deletedOnDisk: false, dirty: false });
  });

  it("follows a file renamed underneath it (terminal mv), keeping unsaved text", async () => {
    await files.writeFile("a.txt", "text");
    await documents.open("a.txt");
    buffer("a.txt").type(" more");
    await files.rename("a.txt", "docs/b.txt", { source: "terminal" });
    await settle();
    expect(documents.tabs.map((t) => t.path)).toEqual(["docs/b.txt"]);
    expect(documents.active).toBe("docs/b.txt");
    expect(buffer("docs/b.txt").getValue()).toBe("text more");
    expect(documents.tab("docs/b.txt")?.dirty).toBe(true);
  });

  it("moves a folder with open files through move(), and the tabs follow", async () => {
    await files.writeFile("src/a.ts", "a");
    await files.writeFile("src/lib/b.ts", "b");
    await documents.open("src/a.ts");
    await documents.open("src/lib/b.ts");
    await documents.move("src", "app");
    await settle();
    expect(documents.tabs.map((t) => t.path)).toEqual(["app/a.ts", "app/lib/b.ts"]);
    expect(documents.active).toBe("app/lib/b.ts");
    expect(buffers.live.map((b) => b.path).sort()).toEqual(["app/a.ts", "app/lib/b.ts"]);
  });

  it("shows binary files as binary, without a text buffer", async () => {
    await files.writeFile("img.png", new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13]));
    await documents.open("img.png");
    expect(documents.tab("img.png")).toMatchObject({ status: "binary", size: 8 });
    expect(documents.buffer("img.png")).toBeUndefined();
    expect(await documents.save("img.png")).toBe(false);
  });

  it("shows an error tab for a file that does not exist", async () => {
    await documents.open("missing.txt");
    expect(documents.tab("missing.txt")).toMatchObject({ status: "error" });
    expect(documents.tab("missing.txt")?.error).toMatch(/Could not open missing\.txt/);
  });

  it("asks before closing a dirty tab: cancel keeps it, discard drops it", async () => {
    await files.writeFile("a.txt", "a");
    await documents.open("a.txt");
    buffer("a.txt").type("!");
    answers.push("cancel");
    expect(await documents.close("a.txt")).toBe(false);
    expect(documents.tab("a.txt")).toBeDefined();
    answers.push("discard");
    expect(await documents.close("a.txt")).toBe(true);
    expect(asked).toEqual(["a.txt", "a.txt"]);
    expect(documents.tabs).toEqual([]);
    expect(await files.readText("a.txt")).toBe("a");
  });

  it("saves before closing when the user picks save", async () => {
    await files.writeFile("a.txt", "a");
    await documents.open("a.txt");
    buffer("a.txt").type("!");
    answers.push("save");
    expect(await documents.close("a.txt")).toBe(true);
    expect(await files.readText("a.txt")).toBe("a!");
  });

  it("activates the neighbour when the active tab closes", async () => {
    for (const name of ["a", "b", "c"]) await files.writeFile(`${name}.txt`, name);
    for (const name of ["a", "b", "c"]) await documents.open(`${name}.txt`);
    documents.activate("b.txt");
    await documents.close("b.txt");
    expect(documents.active).toBe("c.txt");
    await documents.close("c.txt");
    expect(documents.active).toBe("a.txt");
  });

  it("closeUnder closes every tab of a folder without asking", async () => {
    await files.writeFile("src/a.ts", "a");
    await files.writeFile("src/b.ts", "b");
    await files.writeFile("c.ts", "c");
    for (const p of ["src/a.ts", "src/b.ts", "c.ts"]) await documents.open(p);
    buffer("src/a.ts").type("!");
    documents.closeUnder("src");
    expect(documents.tabs.map((t) => t.path)).toEqual(["c.ts"]);
    expect(asked).toEqual([]);
  });

  it("disposes every buffer it created (no leaked models)", async () => {
    await files.writeFile("a.txt", "a");
    await files.writeFile("b.txt", "b");
    await documents.open("a.txt");
    await documents.open("b.txt");
    await documents.close("a.txt");
    expect(buffers.live.map((b) => b.path)).toEqual(["b.txt"]);
    documents.dispose();
    expect(buffers.live).toEqual([]);
  });

  it("fires a focus request once a file opened with focus has loaded", async () => {
    await files.writeFile("a.txt", "a");
    const requests: string[] = [];
    const sub = documents.onDidRequestFocus((path) => requests.push(path));
    await documents.open("a.txt");
    await documents.open("a.txt", { focus: true });
    sub.dispose();
    expect(requests).toEqual(["a.txt"]);
  });

  it("stops listening to the file service when disposed", async () => {
    await files.writeFile("a.txt", "a");
    await documents.open("a.txt");
    const before = buffer("a.txt");
    documents.dispose();
    await files.writeFile("a.txt", "b", { source: "terminal" });
    await settle();
    expect(before.getValue()).toBe("a");
    expect(documents.tabs).toEqual([]);
  });

  it("finds where a file went when a runtime reports a move as delete + create without renamedFrom", async () => {
    await files.writeFile("notes/todo.md", "- write tests\n");
    await files.writeFile("other.md", "unrelated");
    await documents.open("notes/todo.md");
    // Same tick: one change batch, as a runtime watching its own file system would report it.
    files.removeSync("notes/todo.md", { source: "runtime" });
    files.writeSync("archive/todo.md", "- write tests\n", { source: "runtime" });
    await settle();
    expect(documents.tabs.map((t) => t.path)).toEqual(["archive/todo.md"]);
  });

  it("keeps a view state per open tab, follows a move, forgets it when the tab closes, and asks to reveal a selection", async () => {
    await files.writeFile("a.txt", "one\ntwo\n");
    await documents.open("a.txt");
    const changed: string[] = [];
    documents.onDidChangeViewState((path) => changed.push(path));
    documents.setViewState("a.txt", { cursor: 2 });
    documents.setViewState("not-open.txt", { cursor: 9 });
    expect(changed).toEqual(["a.txt"]);
    expect(documents.viewState("not-open.txt")).toBeUndefined();
    await documents.move("a.txt", "b.txt");
    await settle();
    expect(documents.viewState("b.txt")).toEqual({ cursor: 2 });
    expect(documents.viewState("a.txt")).toBeUndefined();
    const reveals: unknown[] = [];
    documents.onDidRequestReveal((r) => reveals.push(r));
    await documents.open("b.txt", { selection: { line: 2, column: 1, endColumn: 4 } });
    expect(reveals).toEqual([{ path: "b.txt", selection: { line: 2, column: 1, endColumn: 4 } }]);
    await documents.close("b.txt");
    expect(documents.viewState("b.txt")).toBeUndefined();
  });
});
