// The WebContainer runtime. Only src/main.tsx imports this. The container itself is booted once per
// page by WebContainerBoot (../webcontainer-boot.ts) and lent to one workspace at a time:
// attachWebContainer clears its work folder, mounts the workspace and starts syncing.
import { WebContainerRuntime, type WebContainerRuntimeOptions } from "./webcontainer-runtime";
import type { WebContainerLike } from "./webcontainer-like";
import type { WorkspaceFiles } from "../workspace-files";

export type { WebContainerLike, ProcessLike, MountTree, ContainerFsLike, DirEntLike, WatcherLike } from "./webcontainer-like";
export { WebContainerRuntime, EXEC_ENV_DEFAULTS, type WebContainerRuntimeOptions } from "./webcontainer-runtime";
export { isExcludedFromSync, MARKER_FOLDER } from "./file-sync";
export { DEFAULT_SYNC_EXCLUDES, SYNC_EXCLUDE_FILE, SYNC_EXCLUDE_TEMPLATE, SyncExclusions } from "./sync-exclusions";
export { CommandOutput } from "./command-output";

/**
 * Moves `files` into the booted container: removes whatever the previous workspace left in the
 * work folder, mounts this one and starts syncing both ways. Disposing the runtime stops its
 * processes and the sync; the container stays booted for the next workspace.
 */
export async function attachWebContainer(container: WebContainerLike, files: WorkspaceFiles, options?: WebContainerRuntimeOptions): Promise<WebContainerRuntime> {
  const entries = await container.fs.readdir(".", { withFileTypes: true });
  await Promise.all(entries.map((entry) => container.fs.rm(entry.name, { recursive: true, force: true })));
  const runtime = new WebContainerRuntime(container, files, options);
  try {
    await runtime.start();
  } catch (error) {
    runtime.dispose();
    throw error;
  }
  return runtime;
}
