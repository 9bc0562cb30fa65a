// The status bar: which runtime runs the workspace, and the editor's cursor and problems.
import { EditorStatusItems } from "../editor";
import { TabFocusStatus } from "./tab-focus-status";
import type { RuntimeStatus } from "./workspace-controller";

function runtimeLabel(runtime: RuntimeStatus | undefined): string {
  if (!runtime || runtime.status === "starting") return "Starting runtime…";
  if (runtime.status === "failed") return "Runtime failed";
  return runtime.runtime.kind === "webcontainer" ? "WebContainer" : "Browser runtime";
}

export function StatusBar({ runtime }: { runtime: RuntimeStatus | undefined }) {
  return (
    <footer className="status-bar" aria-label="Status bar">
      <span className={`status-item status-runtime status-runtime-${runtime?.status ?? "starting"}`}>{runtimeLabel(runtime)}</span>
      <span className="status-spacer" />
      <TabFocusStatus />
      <EditorStatusItems />
    </footer>
  );
}
