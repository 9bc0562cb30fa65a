// The storage view's actions (issue 20 point 2): exporting works with storage full and includes
// the unsaved text of the open workspace's editor tabs (a refused save is not lost); other
// workspaces are read from storage without writing; deleting goes through the given remover.
import { describe, expect, it } from "vitest";
import { newId } from "../../src/base";
import { WorkspaceFiles, createWorkspace } from "../../src/runtime";
import { StorageQuotaError, openStorage } from "../../src/storage";
import { readZip } from "../../src/transfer";
import { Dialogs } from "../../src/ui/common";
import { StorageHealth, storageActions } from "../../src/ui/storage";

function texts(bytes: Uint8Array): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readZip(bytes).entries) {
    if (entry.kind === "file") out[entry.path] = typeof entry.data === "string" ? entry.data : new TextDecoder().decode(entry.data);
  }
  return out;
}

describe("storage actions", () => {
  it("export the open workspace with its unsaved editor text, and another one from storage, while storage refuses writes", async () => {
    const storage = await openStorage({ name: newId("actions") });
    const open = await createWorkspace(storage, "Open", { seedReadme: false });
    const other = await createWorkspace(storage, "Other", { seedReadme: false });
    const files = await WorkspaceFiles.open(storage, open.id);
    await files.writeFile("a.txt", "saved");
    const otherFiles = await WorkspaceFiles.open(storage, other.id);
    await otherFiles.writeFile("src/b.txt", "other");
    await otherFiles.close();
    // Full from here on.
    const files_ = storage.files as typeof storage.files & { applyChecked: typeof storage.files.applyChecked };
    files_.applyChecked = async () => {
      throw new StorageQuotaError(new DOMException("full", "QuotaExceededError"));
    };
    const saved: Array<{ name: string; bytes: Uint8Array }> = [];
    const removed: string[] = [];
    const actions = storageActions({
      storage,
      dialogs: new Dialogs(),
      health: new StorageHealth(),
      current: { workspaceId: open.id, files, unsavedText: () => new Map([["a.txt", "typed but refused"], ["new.txt", "never stored"]]) },
      removeWorkspace: async (id) => {
        removed.push(id);
      },
      save: (bytes, name) => saved.push({ name, bytes }),
    });
    await actions.exportWorkspace(open.id, "Open");
    await actions.exportWorkspace(other.id, "Other");
    expect(saved.map((s) => s.name)).toEqual(["Open.zip", "Other.zip"]);
    expect(texts(saved[0]!.bytes)).toEqual({ "a.txt": "typed but refused", "new.txt": "never stored" });
    expect(texts(saved[1]!.bytes)).toEqual({ "src/b.txt": "other" });
    await actions.deleteWorkspace(other.id);
    expect(removed).toEqual([other.id]);
    files.dispose();
  });
});
