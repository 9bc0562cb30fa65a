// Nothing lost: webcode asks the browser to keep its storage (navigator.storage.persist()), so
// workspaces and sessions are not cleared when the device runs low on space. It asks at a sensible
// moment, the first time the user's work changes in this page (not on a first look at the app), and
// says why; the status bar says once when storage is not persistent.
import { createStore, type StoreApi } from "zustand/vanilla";

export type PersistenceState = "unknown" | "unsupported" | "persistent" | "not-persistent";

export type PersistenceManager = Pick<StorageManager, "persisted" | "persist">;

export interface StoragePersistence {
  readonly store: StoreApi<{ state: PersistenceState }>;
  /** Reads whether storage is already persistent (no prompt). */
  check(): Promise<PersistenceState>;
  /** Asks the browser once per page (it may prompt, or decide by itself); later calls return the answer. */
  request(): Promise<PersistenceState>;
}

export const PERSISTENCE_EXPLANATION =
  "webcode asks your browser to keep its storage, so your workspaces and sessions are not cleared when the device runs low on space.";

export function createStoragePersistence(manager: PersistenceManager | undefined): StoragePersistence {
  const store = createStore<{ state: PersistenceState }>(() => ({ state: manager ? "unknown" : "unsupported" }));
  let asked: Promise<PersistenceState> | undefined;
  const settle = (granted: boolean): PersistenceState => {
    const state: PersistenceState = granted ? "persistent" : "not-persistent";
    store.setState({ state });
    return state;
  };
  return {
    store,
    async check() {
      if (!manager) return "unsupported";
      try {
        return settle(await manager.persisted());
      } catch {
        store.setState({ state: "unsupported" });
        return "unsupported";
      }
    },
    request() {
      if (!manager) return Promise.resolve<PersistenceState>("unsupported");
      asked ??= (async () => {
        try {
          if (await manager.persisted()) return settle(true);
          return settle(await manager.persist());
        } catch {
          store.setState({ state: "unsupported" });
          return "unsupported" as const;
        }
      })();
      return asked;
    },
  };
}

/** The browser's StorageManager when the page has one. */
export function browserPersistenceManager(): PersistenceManager | undefined {
  return typeof navigator !== "undefined" && navigator.storage && typeof navigator.storage.persist === "function" ? navigator.storage : undefined;
}

/** Why the status bar says storage is not persistent (its tooltip and accessible description). */
export const NOT_PERSISTENT_DETAIL =
  "The browser may clear webcode's data (workspaces, sessions) when the device runs low on space. Allow persistent storage for this site in the browser, or keep a backup (Settings → Backup).";
