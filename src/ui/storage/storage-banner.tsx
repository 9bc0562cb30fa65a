// The banner shown while browser storage is full: what it means, and the ways out (free space in
// the storage dialog, retry once space is back). It stays until a probe write succeeds.
import { useState } from "react";
import { useStore } from "zustand";
import { errorMessage } from "../../base";
import type { StorageMaintenance } from "../../storage";
import type { StorageHealth } from "./storage-health";

export function StorageBanner({ health, maintenance, onFreeSpace }: { health: StorageHealth; maintenance: StorageMaintenance; onFreeSpace(): void }) {
  const state = useStore(health.store);
  const [checking, setChecking] = useState(false);
  const [problem, setProblem] = useState<string | undefined>();
  if (state.status === "ok") return null;
  const retry = async () => {
    setChecking(true);
    setProblem(undefined);
    try {
      if (!(await health.check(maintenance))) setProblem("Storage is still full.");
    } catch (error) {
      setProblem(`Storage still fails: ${errorMessage(error)}.`);
    } finally {
      setChecking(false);
    }
  };
  return (
    <div className="storage-banner" role="alert" aria-label="Storage full">
      <strong>Storage full.</strong> <span>{state.message}</span>
      {problem && <span className="storage-banner-problem">{` ${problem}`}</span>}
      <span className="storage-banner-actions">
        <button type="button" className="button button-primary" onClick={onFreeSpace}>
          Free space…
        </button>
        <button type="button" className="button" disabled={checking} onClick={() => void retry()}>
          {checking ? "Checking…" : "Retry"}
        </button>
      </span>
    </div>
  );
}
