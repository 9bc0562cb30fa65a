// Shown instead of the workbench when a workspace cannot be opened (e.g. storage full while the
// first workspace is created): what happened, and the ways out that need no open workspace —
// export a workspace as a zip, delete sessions, snapshots or workspaces (largest first), retry.
import { useMemo } from "react";
import type { Storage } from "../../storage";
import type { Dialogs } from "../common";
import { StorageUsageView, storageActions, type StorageHealth } from "../storage";
import type { FatalError } from "./error-screen";

export interface StorageRecoveryProps {
  error: FatalError;
  storage: Storage;
  dialogs: Dialogs;
  health: StorageHealth;
  onRetry(): void;
}

export function StorageRecovery({ error, storage, dialogs, health, onRetry }: StorageRecoveryProps) {
  const actions = useMemo(() => storageActions({ storage, dialogs, health }), [storage, dialogs, health]);
  return (
    <main className="storage-recovery" aria-label="Storage recovery">
      <div className="error-card">
        <h1>{error.title}</h1>
        <p role="alert">{error.message}</p>
        {error.steps && error.steps.length > 0 && (
          <ul>
            {error.steps.map((step) => (
              <li key={step}>{step}</li>
            ))}
          </ul>
        )}
        <p>Your workspaces are listed below with the space they use. Export what you need, free space, then retry.</p>
        <StorageUsageView actions={actions} />
        <div className="modal-buttons">
          <button type="button" className="button button-primary" onClick={onRetry}>
            Retry
          </button>
        </div>
      </div>
    </main>
  );
}
