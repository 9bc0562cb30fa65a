// The timeout/abort race shared by both runtimes' exec: which comes first, the command's end or
// its interruption. The caller races its own completion against `interrupted` and disposes after.
import type { Disposable } from "../base";

export type Interruption = "timeout" | "abort";

export interface InterruptionWatch extends Disposable {
  /** Settles when the timeout elapses or the signal aborts (at once if it already has); never rejects. */
  readonly interrupted: Promise<Interruption>;
}

export function watchInterruption(options: { timeoutMs?: number; signal?: AbortSignal }): InterruptionWatch {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const interrupted = new Promise<Interruption>((resolve) => {
    if (options.signal?.aborted) {
      resolve("abort");
      return;
    }
    if (options.timeoutMs !== undefined) timer = setTimeout(() => resolve("timeout"), options.timeoutMs);
    if (options.signal) {
      onAbort = () => resolve("abort");
      options.signal.addEventListener("abort", onAbort, { once: true });
    }
  });
  return {
    interrupted,
    dispose() {
      if (timer !== undefined) clearTimeout(timer);
      if (onAbort) options.signal?.removeEventListener("abort", onAbort);
    },
  };
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
