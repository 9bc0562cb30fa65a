// The status bar: which runtime runs the workspace, and the editor's cursor and problems.
import { EditorStatusItems } from "../editor";
import { TabFocusStatus } from "./tab-focus-status";
import type { RuntimeStatus } from "./workspace-controller";

function runtimeLabel(runtime: RuntimeStatus | undefined, readOnly: boolean): string {
  // A read-only shared session has no runtime on purpose: not a failure.
  if (readOnly) return "Read-only";
  if (!runtime || runtime.status === "starting") return "Starting runtime…";
  if (runtime.status === "failed") return "Runtime failed";
  return runtime.runtime.kind === "webcontainer" ? "WebContainer" : "Browser runtime";
}

export function StatusBar({ runtime, readOnly = false }: { runtime: RuntimeStatus | undefined; readOnly?: boolean }) {
  const state = readOnly ? "read-only" : (runtime?.status ?? "starting");
  return (
    <footer className="status-bar" aria-label="Status bar">
      <span
        className={`status-item status-runtime status-runtime-${state}`}
        title={readOnly ? "Shared session opened read-only: nothing runs until you press Continue in the top bar." : undefined}
      >
        {runtimeLabel(runtime, readOnly)}
      </span>
      <span className="status-spacer" />
      <TabFocusStatus />
      <EditorStatusItems />
    </footer>
  );
}
