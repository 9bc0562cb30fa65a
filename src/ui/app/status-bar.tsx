// The status bar: which runtime runs the workspace, and the editor's cursor and problems.
import { EditorStatusItems } from "../editor";
import { TabFocusStatus } from "./tab-focus-status";
import type { ReactNode } from "react";
import type { RuntimeStatus } from "./workspace-controller";

function runtimeLabel(runtime: RuntimeStatus | undefined, readOnly: boolean): string {
  // A read-only shared session has no runtime on purpose: not a failure.
  if (readOnly) return "Read-only";
  if (!runtime || runtime.status === "starting") return "Starting runtime…";
  if (runtime.status === "failed") return "Runtime failed";
  return runtime.runtime.kind === "webcontainer" ? "WebContainer" : "Browser runtime";
}

export function StatusBar({ runtime, readOnly = false, children }: { runtime: RuntimeStatus | undefined; readOnly?: boolean; children?: ReactNode }) {
  const state = readOnly ? "read-only" : (runtime?.status ?? "starting");
  return (
    <footer className="status-bar" aria-label="Status bar">
      <span
        className={`status-item status-runtime status-runtime-${state}`}
        title={readOnly ? "Shared session opened read-only: nothing runs until you press Continue in the top bar." : undefined}
      >
        {runtimeLabel(runtime, readOnly)}
      </span>
      {children}
      <span className="status-spacer" />
      <TabFocusStatus />
      <EditorStatusItems />
    </footer>
  );
}
