// Storage used per workspace (files, sessions, snapshots), largest first, with the ways to free
// space: export a workspace as a zip first, then delete its sessions, its snapshots or all of it.
// Works without an open workspace (the recovery screen) as well as in Settings and the banner's dialog.
import { useCallback, useEffect, useState } from "react";
import { errorMessage, formatBytes } from "../../base";
import type { Storage, StorageUsage, WorkspaceUsage } from "../../storage";

export interface StorageActions {
  storage: Storage;
  /** Builds the zip of a workspace (with unsaved editor text when it is the open one) and downloads it. */
  exportWorkspace(workspaceId: string, name: string): Promise<void>;
  /** Deletes a workspace (the open one is closed first and another opened). */
  deleteWorkspace(workspaceId: string): Promise<void>;
  /** Asks before a deletion; true to go ahead. */
  confirm(title: string, message: string, confirmLabel: string): Promise<boolean>;
  /** Called after space was freed (re-checks whether the browser accepts data again). */
  onFreed?(): Promise<void> | void;
}

type Busy = { workspaceId: string; action: string } | undefined;

export function StorageUsageView({ actions }: { actions: StorageActions }) {
  const [usage, setUsage] = useState<StorageUsage | undefined>();
  const [estimate, setEstimate] = useState<{ usage?: number; quota?: number } | undefined>();
  const [problem, setProblem] = useState<string | undefined>();
  const [notice, setNotice] = useState<string | undefined>();
  const [busy, setBusy] = useState<Busy>();

  const measure = useCallback(async () => {
    try {
      setUsage(await actions.storage.maintenance.usage());
      setEstimate(await navigator.storage?.estimate?.().catch(() => undefined));
    } catch (error) {
      setProblem(`Could not measure storage: ${errorMessage(error)}.`);
    }
  }, [actions]);

  useEffect(() => {
    void measure();
  }, [measure]);

  const run = async (item: WorkspaceUsage, action: string, work: () => Promise<void>, done: string) => {
    setProblem(undefined);
    setNotice(undefined);
    setBusy({ workspaceId: item.workspaceId, action });
    try {
      await work();
      setNotice(done);
      await measure();
      await actions.onFreed?.();
    } catch (error) {
      setProblem(`${action} failed for "${item.name}": ${errorMessage(error)}.`);
    } finally {
      setBusy(undefined);
    }
  };

  const deleteSessions = async (item: WorkspaceUsage) => {
    const ok = await actions.confirm(
      "Delete sessions?",
      `Delete all ${item.sessionCount} chat sessions of "${item.name}" (${formatBytes(item.sessions)})? Their messages cannot be brought back.`,
      "Delete sessions",
    );
    if (ok) await run(item, "Deleting sessions", () => actions.storage.maintenance.deleteSessions(item.workspaceId), `Deleted the sessions of "${item.name}".`);
  };
  const deleteSnapshots = async (item: WorkspaceUsage) => {
    const ok = await actions.confirm(
      "Delete snapshots?",
      `Delete the ${item.snapshotCount} snapshots of "${item.name}" (${formatBytes(item.snapshots)})? Its files stay; the agent's changes made so far can no longer be reverted.`,
      "Delete snapshots",
    );
    if (ok) await run(item, "Deleting snapshots", () => actions.storage.maintenance.deleteSnapshots(item.workspaceId), `Deleted the snapshots of "${item.name}".`);
  };
  const deleteWorkspace = async (item: WorkspaceUsage) => {
    const ok = await actions.confirm(
      "Delete workspace?",
      `Delete "${item.name}" with its files, sessions and snapshots (${formatBytes(item.total)})? Export it first if you may need it.`,
      "Delete workspace",
    );
    if (ok) await run(item, "Deleting the workspace", () => actions.deleteWorkspace(item.workspaceId), `Deleted "${item.name}".`);
  };

  return (
    <div className="storage-usage">
      {usage === undefined ? (
        <p>Measuring storage…</p>
      ) : (
        <>
          <p className="storage-usage-summary">
            {`Workspaces use ${formatBytes(usage.total)}: sessions ${formatBytes(usage.sessions)}, snapshots ${formatBytes(usage.snapshots)}.`}
            {estimate?.usage !== undefined && estimate.quota !== undefined
              ? ` The browser counts ${formatBytes(estimate.usage)} of ${formatBytes(estimate.quota)} allowed for this site.`
              : ""}
          </p>
          <table className="storage-usage-table" aria-label="Storage used per workspace">
            <thead>
              <tr>
                <th scope="col">Workspace</th>
                <th scope="col">Files</th>
                <th scope="col">Sessions</th>
                <th scope="col">Snapshots</th>
                <th scope="col">Total</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {usage.workspaces.map((item) => {
                const working = busy?.workspaceId === item.workspaceId;
                return (
                  <tr key={item.workspaceId} aria-busy={working}>
                    <th scope="row">{item.name}</th>
                    <td>{formatBytes(item.files)}</td>
                    <td>{`${formatBytes(item.sessions)} (${item.sessionCount})`}</td>
                    <td>{`${formatBytes(item.snapshots)} (${item.snapshotCount})`}</td>
                    <td>{formatBytes(item.total)}</td>
                    <td className="storage-usage-actions">
                      <button
                        type="button"
                        className="button"
                        disabled={busy !== undefined}
                        aria-label={`Export "${item.name}" as zip`}
                        onClick={() => void run(item, "Exporting", () => actions.exportWorkspace(item.workspaceId, item.name), `Exported "${item.name}".`)}
                      >
                        Export zip
                      </button>
                      <button
                        type="button"
                        className="button"
                        disabled={busy !== undefined || item.sessionCount === 0}
                        aria-label={`Delete the sessions of "${item.name}" (${formatBytes(item.sessions)})`}
                        onClick={() => void deleteSessions(item)}
                      >
                        Delete sessions
                      </button>
                      <button
                        type="button"
                        className="button"
                        disabled={busy !== undefined || item.snapshotCount === 0}
                        aria-label={`Delete the snapshots of "${item.name}" (${formatBytes(item.snapshots)})`}
                        onClick={() => void deleteSnapshots(item)}
                      >
                        Delete snapshots
                      </button>
                      <button
                        type="button"
                        className="button button-danger"
                        disabled={busy !== undefined}
                        aria-label={`Delete the workspace "${item.name}" (${formatBytes(item.total)})`}
                        onClick={() => void deleteWorkspace(item)}
                      >
                        Delete workspace
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </>
      )}
      {busy && <p role="status">{`${busy.action}…`}</p>}
      {notice && !busy && <p role="status">{notice}</p>}
      {problem && (
        <p className="input-error" role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}
