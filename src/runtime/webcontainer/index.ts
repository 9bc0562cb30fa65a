// The WebContainer runtime. Only src/main.tsx imports this; it passes the real boot, e.g.
// `boot: () => WebContainer.boot({ coep: "credentialless", workdirName: "workspace" })`.
import { abortError } from "../../base";
import { DEFAULT_BOOT_TIMEOUT_MS, raceWithTimeout } from "../boot-timeout";
import type { Runtime } from "../types";
import type { WorkspaceFiles } from "../workspace-files";
import { WebContainerRuntime } from "./webcontainer-runtime";
import type { WebContainerLike } from "./webcontainer-like";

export type { WebContainerLike, ProcessLike, MountTree, ContainerFsLike, DirEntLike, WatcherLike } from "./webcontainer-like";
export { WebContainerRuntime };
export { isExcludedFromSync } from "./file-sync";

export interface BootWebContainerOptions {
  boot: () => Promise<WebContainerLike>;
  /** Default DEFAULT_BOOT_TIMEOUT_MS (15 s); boot can hang forever offline. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/**
 * Boots WebContainer (raced against the timeout: rejects with BootTimeoutError), mounts the
 * workspace and starts syncing. A container that arrives after the deadline or an abort is torn down.
 */
export async function bootWebContainerRuntime(files: WorkspaceFiles, options: BootWebContainerOptions): Promise<Runtime> {
  const release = (late: WebContainerLike) => late.teardown();
  let booting: Promise<WebContainerLike>;
  try {
    booting = options.boot();
  } catch (error) {
    booting = Promise.reject(error);
  }
  const container = await raceWithTimeout(abortable(booting, options.signal, release), options.timeoutMs ?? DEFAULT_BOOT_TIMEOUT_MS, release);
  const runtime = new WebContainerRuntime(container, files);
  try {
    await runtime.start();
  } catch (error) {
    runtime.dispose();
    throw error;
  }
  return runtime;
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined, onLate: (value: T) => void): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const onAbort = () => {
      if (settled) return;
      settled = true;
      reject(abortError("WebContainer boot was cancelled."));
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        if (settled) onLate(value);
        else {
          settled = true;
          resolve(value);
        }
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        if (!settled) {
          settled = true;
          reject(error);
        }
      },
    );
  });
}
