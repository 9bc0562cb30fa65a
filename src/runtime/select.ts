// Which runtime this page gets: WebContainer when the page is isolated, the browser supports it and
// it boots in time; otherwise the browser runtime, with the reason for the notice.
import { errorMessage } from "../base";
import { BootTimeoutError, DEFAULT_BOOT_TIMEOUT_MS, raceWithTimeout } from "./boot-timeout";
import type { FallbackReason, Runtime } from "./types";
import type { WorkspaceFiles } from "./workspace-files";

export type RuntimeOverride = "browser" | "webcontainer";

export interface SelectRuntimeOptions {
  files: WorkspaceFiles;
  /** From `?runtime=browser|webcontainer` (see parseRuntimeOverride). */
  override?: RuntimeOverride;
  crossOriginIsolated: boolean;
  browserSupported: boolean;
  createBrowser: (reason: FallbackReason) => Runtime;
  /** Boots WebContainer; should stop trying when `signal` aborts (the deadline passed). */
  bootWebContainer: (signal: AbortSignal) => Promise<Runtime>;
  timeoutMs?: number;
}

export interface RuntimeSelection {
  runtime: Runtime;
  /** Set when the browser runtime is in use: why (for the notice, see describeFallback). */
  fallback?: FallbackReason;
}

export async function selectRuntime(options: SelectRuntimeOptions): Promise<RuntimeSelection> {
  const fallBack = (reason: FallbackReason): RuntimeSelection => ({ runtime: options.createBrowser(reason), fallback: reason });
  if (options.override === "browser") return fallBack({ kind: "forced" });
  // ?runtime=webcontainer tries even where the checks say it cannot work (and still falls back).
  if (options.override !== "webcontainer") {
    if (!options.crossOriginIsolated) return fallBack({ kind: "not-isolated" });
    if (!options.browserSupported) return fallBack({ kind: "unsupported-browser" });
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_BOOT_TIMEOUT_MS;
  const controller = new AbortController();
  try {
    let boot: Promise<Runtime>;
    try {
      boot = options.bootWebContainer(controller.signal);
    } catch (error) {
      boot = Promise.reject(error);
    }
    // A runtime that shows up after we gave up is released: only one WebContainer per page.
    const runtime = await raceWithTimeout(boot, timeoutMs, (late) => late.dispose());
    return { runtime };
  } catch (error) {
    controller.abort();
    if (error instanceof BootTimeoutError) return fallBack({ kind: "boot-timeout", timeoutMs: error.timeoutMs });
    return fallBack({ kind: "boot-failed", message: errorMessage(error) });
  }
}

/** Reads `runtime=browser` or `runtime=webcontainer` from a location.search string. */
export function parseRuntimeOverride(search: string): RuntimeOverride | undefined {
  const value = new URLSearchParams(search.startsWith("?") ? search.slice(1) : search).get("runtime")?.trim().toLowerCase();
  if (value === "browser") return "browser";
  if (value === "webcontainer" || value === "wc") return "webcontainer";
  return undefined;
}
