// The runtime layer's public surface: the Runtime interface, the workspace file service, workspace
// records and runtime selection. The concrete runtimes (browser/, webcontainer/) are picked by
// src/main.tsx only.
export * from "./types";
export { WorkspaceFiles, PERSIST_DELAY_MS, type RenameOptions, type WorkspaceFilesOptions } from "./workspace-files";
export { EgressRefusedError, NetworkLog, originOf, recordingFetch, type EgressRequest, type ExecGate, type GatedFetch, type NetworkLogEntry } from "./egress";
export { WorkspaceFsError, isFsError, isStorageFailure, type FsErrorCode } from "./fs-errors";
export {
  createWorkspace,
  ensureWorkspace,
  renameWorkspace,
  deleteWorkspace,
  listWorkspaces,
  suggestWorkspaceName,
  validateWorkspaceName,
  STARTER_README,
  MAX_WORKSPACE_NAME_LENGTH,
} from "./workspaces";
export { webContainerBlocked, parseRuntimeOverride, type RuntimeOverride, type RuntimeSelection, type WebContainerEligibility } from "./select";
export { WebContainerBoot, type WebContainerBootOptions, type WebContainerStatus } from "./webcontainer-boot";
export { WorkspaceRuntime, stageReason, UPGRADE_NOTICE, type WorkspaceRuntimeOptions } from "./workspace-runtime";
export {
  RUNTIME_SETTINGS_KEY,
  DEFAULT_RUNTIME_SETTINGS,
  MIN_BOOT_TIMEOUT_MS,
  MAX_BOOT_TIMEOUT_MS,
  clampBootTimeout,
  cleanHost,
  cleanProxyUrl,
  cleanSyncUrl,
  restoreRuntimeSettings,
  syncCredentials,
  MAX_SYNC_NAME,
  type RuntimeSettings,
  type SyncRoom,
} from "./runtime-settings";
export { describeFallback, fallbackCause, UNAVAILABLE_IN_BROWSER_RUNTIME, type FallbackNotice } from "./fallback";
export { BootTimeoutError, DEFAULT_BOOT_TIMEOUT_MS, raceWithTimeout } from "./boot-timeout";
export { sharedCompilerOptions } from "./code-intel/compiler-options";
export type { CodeDiagnostic, CodeLocation, CodeQuery, CodeQueryResult, EditedFile, FileDiagnostics } from "./code-intel/types";
export { PreviewHub, PREVIEW_PREFIX, type PreviewResponse } from "./preview";
