// Racing a start-up against a deadline. WebContainer's boot can hang forever (offline, missing
// isolation), so nothing that boots may be awaited without one.
import { UserFacingError } from "../base";

export const DEFAULT_BOOT_TIMEOUT_MS = 15_000;

export class BootTimeoutError extends UserFacingError {
  constructor(readonly timeoutMs: number) {
    super(
      `WebContainer did not start within ${Math.round(timeoutMs / 1000)} s. It loads from StackBlitz's servers and needs the network; check your connection and reload.`,
      "boot-timeout",
    );
    this.name = "BootTimeoutError";
  }
}

/**
 * Resolves with `promise` unless `timeoutMs` passes first (then rejects with BootTimeoutError).
 * A value that arrives after the deadline is handed to `onLate` so it can be released.
 */
export function raceWithTimeout<T>(promise: Promise<T>, timeoutMs: number, onLate?: (value: T) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(() => {
      settled = true;
      reject(new BootTimeoutError(timeoutMs));
    }, timeoutMs);
    promise.then(
      (value) => {
        clearTimeout(timer);
        if (settled) onLate?.(value);
        else {
          settled = true;
          resolve(value);
        }
      },
      (error: unknown) => {
        clearTimeout(timer);
        if (!settled) {
          settled = true;
          reject(error);
        }
      },
    );
  });
}
