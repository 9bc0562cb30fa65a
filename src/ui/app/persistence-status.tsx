// The status bar item that says, once, that the browser may clear webcode's storage.
import { useStore } from "zustand";
import { createStore } from "zustand/vanilla";
import { NOT_PERSISTENT_DETAIL, type PersistenceState, type StoragePersistence } from "./storage-persistence";

/** Stands in when no persistence service is given (tests, the skeleton). */
const NO_STORE = createStore<{ state: PersistenceState }>(() => ({ state: "unsupported" }));

export function PersistenceStatusItem({ persistence }: { persistence: StoragePersistence | undefined }) {
  const state = useStore(persistence?.store ?? NO_STORE, (s) => s.state);
  if (state !== "not-persistent") return null;
  return (
    <span className="status-item status-warning" title={NOT_PERSISTENT_DETAIL} aria-description={NOT_PERSISTENT_DETAIL}>
      Storage not persistent
    </span>
  );
}

