// Settings stores load once and then write whole records from memory. Another tab (or a backup
// restore) may store one of their records meanwhile: each store reloads those keys when told, so
// its next change starts from what is stored rather than writing the other tab's change over.
import type { Disposable } from "../../base";
import type { Storage } from "../../storage";

export type SettingsStorage = Pick<Storage, "settings"> & Partial<Pick<Storage, "changes">>;

/** Calls `reload` when another tab stores one of `keys` (storage without tab changes: never). */
export function reloadWhenStoredElsewhere(storage: SettingsStorage, keys: readonly string[], reload: () => Promise<unknown>): Disposable | undefined {
  return storage.changes?.onDidChange((change) => {
    if (change.kind !== "settings" || !change.keys.some((key) => keys.includes(key))) return;
    reload().catch((error: unknown) => console.warn("webcode: settings changed in another tab could not be read", error));
  });
}
