// Runs readZip off the main thread: the page calls unzipInWorker, a module worker
// (zip-worker-entry.ts) runs handleUnzipRequest. Where there is no Worker (Node, tests) the same
// pure readZip runs in-thread, so behaviour is identical.
import { abortError } from "../base";
import type { ImportOptions, ImportProgress, ImportResult, ProgressListener } from "./import-entries";
import { readZip } from "./zip-import";
import { ImportError, type ImportErrorCode } from "./zip-limits";

export interface UnzipRequest {
  type: "unzip";
  bytes: Uint8Array;
  options: ImportOptions;
}

export type UnzipResponse =
  | { type: "progress"; progress: ImportProgress }
  | { type: "done"; result: ImportResult }
  | { type: "error"; error: { name: string; message: string; reason?: ImportErrorCode } };

/** The part of the Worker API used here (a fake in tests, a real module worker in the page). */
export interface WorkerLike {
  postMessage(message: unknown, transfer: Transferable[]): void;
  onmessage: ((event: { data: unknown }) => void) | null;
  onerror: ((event: { message?: string }) => void) | null;
  terminate(): void;
}

/** Progress messages are posted at most this often (plus the last one). */
const PROGRESS_INTERVAL_MS = 50;

/** Handles one request inside the worker. */
export function handleUnzipRequest(request: UnzipRequest, post: (message: UnzipResponse, transfer: Transferable[]) => void, now: () => number = Date.now): void {
  let last = 0;
  try {
    const result = readZip(request.bytes, request.options, (progress) => {
      const t = now();
      if (t - last >= PROGRESS_INTERVAL_MS || progress.files === progress.totalFiles) {
        last = t;
        post({ type: "progress", progress }, []);
      }
    });
    const buffers = new Set<ArrayBuffer>();
    for (const entry of result.entries) {
      if (entry.kind === "file" && entry.data instanceof Uint8Array && entry.data.buffer instanceof ArrayBuffer) buffers.add(entry.data.buffer);
    }
    post({ type: "done", result }, [...buffers]);
  } catch (error) {
    const e = error instanceof Error ? error : new Error(String(error));
    post({ type: "error", error: { name: e.name, message: e.message, ...(error instanceof ImportError ? { reason: error.reason } : {}) } }, []);
  }
}

function defaultWorker(): WorkerLike | undefined {
  if (typeof Worker === "undefined") return undefined;
  return new Worker(new URL("./zip-worker-entry.ts", import.meta.url), { type: "module", name: "webcode-unzip" }) as unknown as WorkerLike;
}

function rebuildError(error: { name: string; message: string; reason?: ImportErrorCode }): Error {
  if (error.reason) return new ImportError(error.reason, error.message);
  if (error.name === "AbortError") return abortError(error.message);
  return new Error(`The zip could not be read: ${error.message}`);
}

/**
 * Unzips in a worker. `bytes` is transferred to the worker (it is unusable afterwards). Cancelling
 * terminates the worker at once. Falls back to in-thread when the environment has no Worker.
 */
export function unzipInWorker(
  bytes: Uint8Array,
  options: ImportOptions = {},
  onProgress?: ProgressListener,
  signal?: AbortSignal,
  createWorker: () => WorkerLike | undefined = defaultWorker,
): Promise<ImportResult> {
  if (signal?.aborted) return Promise.reject(abortError("The import was cancelled."));
  const worker = createWorker();
  if (!worker) {
    return new Promise((resolve, reject) => {
      // A macrotask first, so the caller can show its progress bar before the work starts.
      setTimeout(() => {
        try {
          resolve(readZip(bytes, options, onProgress, signal));
        } catch (error) {
          reject(error);
        }
      }, 0);
    });
  }
  return new Promise((resolve, reject) => {
    const finish = () => {
      signal?.removeEventListener("abort", onAbort);
      worker.onmessage = null;
      worker.onerror = null;
      worker.terminate();
    };
    const onAbort = () => {
      finish();
      reject(abortError("The import was cancelled."));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    worker.onmessage = ({ data }) => {
      const message = data as UnzipResponse;
      if (message.type === "progress") onProgress?.(message.progress);
      else if (message.type === "done") {
        finish();
        resolve(message.result);
      } else {
        finish();
        reject(rebuildError(message.error));
      }
    };
    worker.onerror = (event) => {
      finish();
      reject(new Error(`The zip could not be read: the unzip worker failed (${event.message ?? "unknown error"}). Reload the page and try again.`));
    };
    const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
    const payload = whole ? bytes : bytes.slice();
    const request: UnzipRequest = { type: "unzip", bytes: payload, options };
    worker.postMessage(request, [payload.buffer as ArrayBuffer]);
  });
}
