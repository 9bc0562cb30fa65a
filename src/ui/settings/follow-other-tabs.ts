// Settings stores load once and then write whole records from memory. Another tab (or a backup
// restore) may store one of their records meanwhile: each store reloads those keys when told, so
// its next change starts from what is stored rather than writing the other tab's change over.
import type { Disposable } from "../../base";
import type { Storage } from "../../storage";

export type SettingsStorage = Pick<Storage, "settings"> & Partial<Pick<Storage, "changes">>;

/**
 * Calls `reload` with the keys stored when another tab stores one of `keys` (storage without tab
 * changes: never). News that arrives while a reload runs is gathered into one more reload after it.
 */
export function reloadWhenStoredElsewhere(storage: SettingsStorage, keys: readonly string[], reload: (changed: string[]) => Promise<unknown>): Disposable | undefined {
  let running = false;
  let waiting: Set<string> | undefined;
  const start = (changed: string[]) => {
    running = true;
    reload(changed)
      .catch((error: unknown) => console.warn("webcode: settings changed in another tab could not be read", error))
      .finally(() => {
        running = false;
        const next = waiting;
        waiting = undefined;
        if (next) start([...next]);
      });
  };
  return storage.changes?.onDidChange((change) => {
    if (change.kind !== "settings") return;
    const changed = change.keys.filter((key) => keys.includes(key));
    if (changed.length === 0) return;
    if (!running) start(changed);
    else for (const key of changed) (waiting ??= new Set()).add(key);
  });
}
