// The storage view's actions over the real services: export (reading the workspace from storage,
// or the open one with its unsaved editor text), delete through the workspace controller when one
// runs, confirm through the app's dialogs, and re-check storage after space was freed.
import { WorkspaceFiles, deleteWorkspace as deleteStoredWorkspace, type WorkspaceFs } from "../../runtime";
import type { Storage } from "../../storage";
import { zipEntries, type ImportEntry } from "../../transfer";
import type { Dialogs } from "../common";
import { downloadBytes, exportFileName } from "../transfer";
import type { StorageHealth } from "./storage-health";
import type { StorageActions } from "./storage-usage-view";

export interface StorageActionsOptions {
  storage: Storage;
  dialogs: Dialogs;
  health: StorageHealth;
  /** The open workspace: exported from memory with the unsaved text of its editor tabs. */
  current?: { workspaceId: string; files: WorkspaceFs; unsavedText(): Map<string, string> };
  /** Deletes through the workspace controller (closes and replaces the open workspace). */
  removeWorkspace?(workspaceId: string): Promise<void>;
  /** Where the zip goes (default: a download). */
  save?(bytes: Uint8Array, fileName: string): void;
}

/** Every file and folder of a workspace as zip entries; `overlay` replaces file texts (unsaved edits). */
async function entriesOf(files: WorkspaceFs, overlay: Map<string, string>): Promise<ImportEntry[]> {
  const entries: ImportEntry[] = [];
  const seen = new Set<string>();
  for (const stat of await files.listAll()) {
    seen.add(stat.path);
    if (stat.kind === "dir") entries.push({ kind: "dir", path: stat.path });
    else entries.push({ kind: "file", path: stat.path, data: overlay.get(stat.path) ?? (await files.readFile(stat.path)), mtime: stat.mtime });
  }
  // An unsaved tab whose file was never stored (a refused first save) is exported too.
  for (const [path, text] of overlay) if (!seen.has(path)) entries.push({ kind: "file", path, data: text });
  return entries;
}

export function storageActions(options: StorageActionsOptions): StorageActions {
  const { storage, dialogs, health } = options;
  return {
    storage,
    async exportWorkspace(workspaceId, name) {
      let entries: ImportEntry[];
      if (options.current?.workspaceId === workspaceId) {
        entries = await entriesOf(options.current.files, options.current.unsavedText());
      } else {
        // Read-only: exporting never writes, even if the stored tree lacks a folder record.
        const files = await WorkspaceFiles.open(storage, workspaceId, { readOnly: true });
        try {
          entries = await entriesOf(files, new Map());
        } finally {
          files.dispose();
        }
      }
      const bytes = await zipEntries(entries, name);
      (options.save ?? ((data, fileName) => downloadBytes(data, fileName, "application/zip")))(bytes, exportFileName(name, ""));
    },
    async deleteWorkspace(workspaceId) {
      if (options.removeWorkspace) await options.removeWorkspace(workspaceId);
      else await deleteStoredWorkspace(storage, workspaceId);
    },
    confirm: (title, message, label) => dialogs.confirm(title, message, label, { danger: true }),
    onFreed: async () => {
      await health.check(storage.maintenance);
    },
  };
}
