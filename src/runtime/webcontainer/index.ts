// The WebContainer runtime. Only src/main.tsx imports this. The container itself is booted once per
// page by WebContainerBoot (../webcontainer-boot.ts) and lent to one workspace at a time:
// attachWebContainer clears its work folder, mounts the workspace and starts syncing.
import { NO_HANDOFF, WebContainerRuntime, type ContainerHandoff, type WebContainerRuntimeOptions } from "./webcontainer-runtime";
import type { WebContainerLike } from "./webcontainer-like";
import type { WorkspaceFiles } from "../workspace-files";

export type { WebContainerLike, ProcessLike, MountTree, ContainerFsLike, DirEntLike, WatcherLike } from "./webcontainer-like";
export { WebContainerRuntime, EXEC_ENV_DEFAULTS, STOP_WAIT_MS, type ContainerHandoff, type WebContainerRuntimeOptions } from "./webcontainer-runtime";
export { isExcludedFromSync, MARKER_FOLDER } from "./file-sync";
export { DEFAULT_SYNC_EXCLUDES, SYNC_EXCLUDE_FILE, SYNC_EXCLUDE_TEMPLATE, SyncExclusions } from "./sync-exclusions";
export { CommandOutput } from "./command-output";

/**
 * The container's hand-over from one workspace to the next. The container is the page's and its
 * work folder is shared: an attach waits here until the previous workspace's runtime has closed
 * (its processes ended, its last changes pulled into its files), so two workspaces never list,
 * remove or mount on it at the same time. Keyed by container; a container no longer referenced
 * (torn down and dropped) takes its chain with it.
 */
const handoffs = new WeakMap<object, Promise<ContainerHandoff>>();

export interface AttachOptions extends WebContainerRuntimeOptions {
  /** Aborted when the workspace is closed before the attach finished: it stops at the next step. */
  signal?: AbortSignal;
}

/**
 * Moves `files` into the booted container: waits for the previous workspace to let go of it,
 * removes whatever that one left in the work folder, mounts this one and starts syncing both ways.
 * Closing the runtime stops its processes and the sync and hands the container on; the container
 * stays booted for the next workspace.
 */
export async function attachWebContainer(container: WebContainerLike, files: WorkspaceFiles, options: AttachOptions = {}): Promise<WebContainerRuntime> {
  const { signal, ...runtimeOptions } = options;
  const previous = handoffs.get(container) ?? Promise.resolve(NO_HANDOFF);
  let handOn!: (handoff: ContainerHandoff) => void;
  handoffs.set(container, new Promise((resolve) => (handOn = resolve)));
  const inherited = await previous;
  let runtime: WebContainerRuntime | undefined;
  try {
    signal?.throwIfAborted();
    const entries = await container.fs.readdir(".", { withFileTypes: true });
    await Promise.all(entries.map((entry) => container.fs.rm(entry.name, { recursive: true, force: true })));
    signal?.throwIfAborted();
    runtime = new WebContainerRuntime(container, files, { ...runtimeOptions, inherited, onClosed: handOn });
    await runtime.start();
    signal?.throwIfAborted();
    return runtime;
  } catch (error) {
    // Closing hands the container on; without a runtime, what was inherited is passed on unreported.
    if (runtime) await runtime.close();
    else handOn(inherited);
    throw error;
  }
}

/** How long the health check waits for the container to list its work folder. */
export const PROBE_TIMEOUT_MS = 10_000;

/**
 * The health check (WorkspaceRuntime's `probe`): a crashed or frozen container never answers its
 * calls, so a listing of the work folder that takes longer than PROBE_TIMEOUT_MS counts as lost.
 */
export async function probeWebContainer(container: WebContainerLike, timeoutMs = PROBE_TIMEOUT_MS): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`it did not answer within ${Math.round(timeoutMs / 1000)} s`)), timeoutMs);
  });
  try {
    await Promise.race([container.fs.readdir(".", { withFileTypes: true }), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
