// Error kinds shared across layers. Messages the user sees say what happened and what to do next.

/** An error whose message is written for the user (shown as is in the UI). */
export class UserFacingError extends Error {
  constructor(
    message: string,
    readonly code: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "UserFacingError";
  }
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === "string") return error;
  try {
    return JSON.stringify(error);
  } catch {
    return String(error);
  }
}

export function isAbortError(error: unknown): boolean {
  return (
    (error instanceof Error || (typeof DOMException !== "undefined" && error instanceof DOMException)) &&
    ((error as Error).name === "AbortError" || (error as Error).name === "TimeoutError")
  );
}

export function abortError(message = "aborted"): Error {
  const error = new Error(message);
  error.name = "AbortError";
  return error;
}

/** Is this IndexedDB/storage failure the browser refusing more data? */
export function isQuotaError(error: unknown): boolean {
  const name = (error as { name?: string } | null)?.name;
  return name === "QuotaExceededError" || /quota/i.test(errorMessage(error));
}
