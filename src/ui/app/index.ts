// The app shell's public surface: mount it, hand it storage and the runtime factories, and the
// extension points other panels (chat, settings, share, import) plug into.
export { mountApp, type AppHandle } from "./mount";
export type { AppServices, RuntimeSelection, WorkspaceFiles } from "./services";
export type { Contributions, PanelContribution, TopBarContribution } from "./contributions";
export { useWorkbench, type WorkbenchServices } from "./workbench-context";
export { storageFailure, type FatalError } from "./error-screen";
export { WorkspaceController, LAST_WORKSPACE_KEY, FIRST_WORKSPACE_NAME, type RuntimeStatus, type WorkspaceState } from "./workspace-controller";
