// Whether the browser accepts new data for this site. Any refused write (a file, a chat record, a
// setting) marks storage full; a probe at start and after freeing space tells when it is back.
import { createStore, type StoreApi } from "zustand/vanilla";
import { isQuotaError } from "../../base";
import { isFsError } from "../../runtime";
import type { StorageMaintenance } from "../../storage";

export type StorageHealthState = { status: "ok" } | { status: "full"; message: string };

/**
 * Full storage makes webcode read-only where it must be, as a full disk does an IDE: everything can
 * still be read, run and exported, edits stay in their (dirty) editor tabs, and every save, chat
 * record or setting that cannot be stored fails where it was made and says so.
 */
export const STORAGE_FULL_MESSAGE =
  "Browser storage for this site is full, so webcode is read-only for now: files, chats and settings cannot be saved (each attempt says so, and unsaved editor tabs stay marked). Export what you need, delete old sessions, snapshots or workspaces, then retry.";

/** Was this failure the browser refusing more data (full quota)? */
export function isStorageFull(error: unknown): boolean {
  return isFsError(error, "ENOSPC") || isQuotaError(error) || isQuotaError((error as { cause?: unknown } | null)?.cause);
}

export class StorageHealth {
  readonly store: StoreApi<StorageHealthState> = createStore<StorageHealthState>(() => ({ status: "ok" }));

  /** Notes a failed write; a full quota shows the storage banner. */
  report(error: unknown): void {
    if (isStorageFull(error)) this.store.setState({ status: "full", message: STORAGE_FULL_MESSAGE }, true);
  }

  /** Tries a tiny write: the banner goes when the browser accepts data again. True when it does. */
  async check(maintenance: StorageMaintenance): Promise<boolean> {
    try {
      await maintenance.probe();
      this.store.setState({ status: "ok" }, true);
      return true;
    } catch (error) {
      if (isStorageFull(error)) {
        this.report(error);
        return false;
      }
      throw error;
    }
  }
}
