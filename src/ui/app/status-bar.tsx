// The status bar: where the workspace's commands run (with the reason and Retry one click away),
// what is not saved yet, and the editor's cursor and problems.
import type { ReactNode } from "react";
import { EditorStatusItems } from "../editor";
import { RuntimeStatusItem } from "./runtime-status";
import { TabFocusStatus } from "./tab-focus-status";
import { PersistenceStatusItem } from "./persistence-status";
import type { StoragePersistence } from "./storage-persistence";
import type { RuntimeStatus } from "./workspace-controller";

export function StatusBar({
  runtime,
  readOnly = false,
  retry,
  children,
  persistence,
}: {
  runtime: RuntimeStatus | undefined;
  readOnly?: boolean;
  retry?: () => void;
  children?: ReactNode;
  persistence?: StoragePersistence;
}) {
  return (
    <footer className="status-bar" aria-label="Status bar">
      <RuntimeStatusItem runtime={runtime} readOnly={readOnly} retry={retry} />
      {children}
      <PersistenceStatusItem persistence={persistence} />
      <span className="status-spacer" />
      <TabFocusStatus />
      <EditorStatusItems />
    </footer>
  );
}
