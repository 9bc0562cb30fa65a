// What the app shell needs from the composition root (main.tsx): storage, and the two steps of
// opening a workspace. main.tsx picks the concrete runtime; the UI only sees the interfaces.
import type { RuntimeSelection, WorkspaceFiles } from "../../runtime";
import type { Storage } from "../../storage";

export type { RuntimeSelection, WorkspaceFiles };

export interface AppServices {
  storage: Storage;
  /** Opens the file service of a workspace (restores its files from IndexedDB). */
  openFiles(workspaceId: string): Promise<WorkspaceFiles>;
  /** Picks and starts a runtime over the files; never hangs (WebContainer boot is raced). */
  startRuntime(files: WorkspaceFiles): Promise<RuntimeSelection>;
  /**
   * Set when IndexedDB could not be opened and `storage` is the in-memory stand-in: why, and a check
   * whether the browser's storage opens now (undefined when it does, else the error's text).
   */
  temporaryStorage?: { reason: string; checkAgain(): Promise<string | undefined> };
  /** A write the app does on its own (e.g. remembering the last workspace) was refused; not fatal. */
  onStorageError?(error: unknown): void;
}
