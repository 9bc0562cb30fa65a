// The browser's side of storage in Settings → Storage: whether it keeps webcode's data when the
// device runs low on space (persistent), with a button to ask for it, and how much this site uses
// of what the browser allows it.
import { useCallback, useEffect, useState } from "react";
import { formatBytes } from "../../base";

export type QuotaManager = Pick<StorageManager, "persisted" | "persist" | "estimate">;

interface QuotaState {
  persisted?: boolean;
  usage?: number;
  quota?: number;
}

export function BrowserQuota({ manager }: { manager: QuotaManager | undefined }) {
  const [state, setState] = useState<QuotaState | undefined>(undefined);
  const [asking, setAsking] = useState(false);
  const read = useCallback(async () => {
    if (!manager) return;
    const [persisted, estimate] = await Promise.all([manager.persisted().catch(() => undefined), manager.estimate().catch(() => undefined)]);
    setState({
      ...(persisted !== undefined && { persisted }),
      ...(estimate?.usage !== undefined && { usage: estimate.usage }),
      ...(estimate?.quota !== undefined && { quota: estimate.quota }),
    });
  }, [manager]);
  useEffect(() => void read(), [read]);

  if (!manager) return <p className="form-hint">This browser does not tell how much storage webcode may use or whether it keeps it.</p>;
  if (!state) return null;
  const ask = async () => {
    setAsking(true);
    try {
      await manager.persist().catch(() => false);
      await read();
    } finally {
      setAsking(false);
    }
  };
  return (
    <div className="browser-quota" aria-label="Browser storage">
      {state.usage !== undefined && state.quota !== undefined && (
        <p className="form-hint">
          This site uses {formatBytes(state.usage)} of the {formatBytes(state.quota)} the browser allows it ({formatBytes(Math.max(0, state.quota - state.usage))} available).
        </p>
      )}
      {state.persisted === true && <p className="form-hint">Persistent: the browser keeps this data even when the device runs low on space.</p>}
      {state.persisted === false && (
        <p className="form-hint">
          Not persistent: the browser may clear this data when the device runs low on space.{" "}
          <button type="button" className="button" disabled={asking} onClick={() => void ask()}>
            Ask to keep storage
          </button>
        </p>
      )}
    </div>
  );
}
