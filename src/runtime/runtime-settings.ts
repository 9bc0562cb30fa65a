// Settings → Runtime: whether to use WebContainer where it can run, the StackBlitz API key a
// deployment on a domain other than localhost needs, and how long to wait for its boot. Stored in
// this origin's settings store like provider keys (never exported or shared); read once per page
// load by the composition root, since WebContainer boots at most once per page.
import { DEFAULT_BOOT_TIMEOUT_MS } from "./boot-timeout";

export const RUNTIME_SETTINGS_KEY = "runtime";
export const MIN_BOOT_TIMEOUT_MS = 2_000;
export const MAX_BOOT_TIMEOUT_MS = 120_000;

export interface RuntimeSettings {
  /** Use WebContainer when available; off: it is never loaded. */
  useWebContainer: boolean;
  /** StackBlitz WebContainer API key, applied with configureAPIKey before boot ("" = none). */
  webContainerApiKey: string;
  bootTimeoutMs: number;
}

export const DEFAULT_RUNTIME_SETTINGS: RuntimeSettings = {
  useWebContainer: true,
  webContainerApiKey: "",
  bootTimeoutMs: DEFAULT_BOOT_TIMEOUT_MS,
};

export function clampBootTimeout(ms: number): number {
  if (!Number.isFinite(ms)) return DEFAULT_BOOT_TIMEOUT_MS;
  return Math.round(Math.min(MAX_BOOT_TIMEOUT_MS, Math.max(MIN_BOOT_TIMEOUT_MS, ms)));
}

/** Stored settings are untrusted input: unknown fields dropped, wrong types fall back to defaults. */
export function restoreRuntimeSettings(value: unknown): RuntimeSettings {
  const out = { ...DEFAULT_RUNTIME_SETTINGS };
  if (!value || typeof value !== "object" || Array.isArray(value)) return out;
  const record = value as Record<string, unknown>;
  if (typeof record.useWebContainer === "boolean") out.useWebContainer = record.useWebContainer;
  if (typeof record.webContainerApiKey === "string") out.webContainerApiKey = record.webContainerApiKey.trim();
  if (typeof record.bootTimeoutMs === "number") out.bootTimeoutMs = clampBootTimeout(record.bootTimeoutMs);
  return out;
}
