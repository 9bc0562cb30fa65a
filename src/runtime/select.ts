// Whether this page may try WebContainer at all. The workspace always opens on the browser runtime
// (workspace-runtime.ts); WebContainer, where it may be tried, boots in the background
// (webcontainer-boot.ts) and the workspace moves to it when it is ready.
import type { FallbackReason, Runtime, RuntimeUpgrade } from "./types";

export type RuntimeOverride = "browser" | "webcontainer";

export interface WebContainerEligibility {
  /** From `?runtime=browser|webcontainer` (see parseRuntimeOverride). */
  override?: RuntimeOverride;
  /** Settings → Runtime, "Use WebContainer when available". */
  enabled: boolean;
  crossOriginIsolated: boolean;
  browserSupported: boolean;
}

/** Why WebContainer is not tried in this page, or undefined when it may be. */
export function webContainerBlocked(options: WebContainerEligibility): FallbackReason | undefined {
  if (options.override === "browser") return { kind: "forced" };
  // ?runtime=webcontainer tries even where the checks say it cannot work (it still never blocks).
  if (options.override === "webcontainer") return undefined;
  if (!options.enabled) return { kind: "disabled" };
  if (!options.crossOriginIsolated) return { kind: "not-isolated" };
  if (!options.browserSupported) return { kind: "unsupported-browser" };
  return undefined;
}

export interface RuntimeSelection {
  /** The workspace's runtime: ready to run commands at once. */
  runtime: Runtime;
  /** Present when the runtime may move to WebContainer: its stage for the status bar, and Retry. */
  upgrade?: RuntimeUpgrade;
}

/** Reads `runtime=browser` or `runtime=webcontainer` from a location.search string. */
export function parseRuntimeOverride(search: string): RuntimeOverride | undefined {
  const value = new URLSearchParams(search.startsWith("?") ? search.slice(1) : search).get("runtime")?.trim().toLowerCase();
  if (value === "browser") return "browser";
  if (value === "webcontainer" || value === "wc") return "webcontainer";
  return undefined;
}
