// "N unsaved changes" in the status bar: editor tabs whose text is not stored (not saved yet, or a
// save the browser refused) and workspace changes still waiting to be written. Hidden when none.
import { useEffect, useState } from "react";
import { useStore } from "zustand";
import type { WorkspaceFiles } from "../../runtime";
import type { EditorDocuments } from "../editor";

/** Paths with changes not in storage: dirty editor tabs and pending workspace writes. */
export function unsavedPaths(files: Pick<WorkspaceFiles, "pendingPaths">, documents: Pick<EditorDocuments, "tabs">): string[] {
  const paths = new Set(documents.tabs.filter((t) => t.dirty).map((t) => t.path));
  for (const path of files.pendingPaths()) paths.add(path);
  return [...paths].sort();
}

/** How often the pending-write count is looked at again while some are waiting. */
const RECHECK_MS = 250;

export function UnsavedStatus({ files, documents }: { files: WorkspaceFiles; documents: EditorDocuments }) {
  const tabs = useStore(documents.store, (s) => s.tabs);
  const [pending, setPending] = useState<string[]>(() => files.pendingPaths());
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const look = () => {
      clearTimeout(timer);
      const now = files.pendingPaths();
      setPending((before) => (before.length === now.length && before.every((p, i) => p === now[i]) ? before : now));
      // Writes are stored within milliseconds; look again until none wait.
      if (now.length > 0) timer = setTimeout(look, RECHECK_MS);
    };
    const changes = files.onDidChange(look);
    const failures = files.onDidFailToPersist(look);
    look();
    return () => {
      clearTimeout(timer);
      changes.dispose();
      failures.dispose();
    };
  }, [files]);
  const paths = new Set([...tabs.filter((t) => t.dirty).map((t) => t.path), ...pending]);
  if (paths.size === 0) return null;
  const label = paths.size === 1 ? "1 unsaved change" : `${paths.size} unsaved changes`;
  return (
    <span className="status-item status-unsaved" role="status" title={`Not stored yet: ${[...paths].sort().join(", ")}`}>
      {label}
    </span>
  );
}
