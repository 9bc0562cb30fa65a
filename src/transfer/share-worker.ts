// Decodes and validates a share off the main thread: inflating, parsing and checking a big share
// takes seconds of CPU, which would freeze the page (issue 9, point 7). The page calls
// decodeShareInWorker; a module worker (share-worker-entry.ts) runs handleShareDecodeRequest. Where
// there is no Worker (Node, tests) the same decode runs in-thread, so behaviour is identical.
import { decodeShareFile, decodeShareLink } from "./share-codec";
import { ShareError, type RestoredShare, type ShareErrorCode } from "./share-restore";
import type { WorkerLike } from "./zip-worker";

export type ShareDecodeRequest = { type: "share-link"; link: string } | { type: "share-file"; bytes: Uint8Array };

export type ShareDecodeResponse = { type: "done"; restored: RestoredShare } | { type: "error"; error: { name: string; message: string; reason?: ShareErrorCode } };

function decode(request: ShareDecodeRequest): RestoredShare {
  return request.type === "share-link" ? decodeShareLink(request.link) : decodeShareFile(request.bytes);
}

/** Handles one request inside the worker. */
export function handleShareDecodeRequest(request: ShareDecodeRequest, post: (message: ShareDecodeResponse, transfer: Transferable[]) => void): void {
  try {
    const restored = decode(request);
    const buffers = new Set<ArrayBuffer>();
    for (const entry of restored.entries) {
      if (entry.kind === "file" && entry.data instanceof Uint8Array && entry.data.buffer instanceof ArrayBuffer) buffers.add(entry.data.buffer);
    }
    post({ type: "done", restored }, [...buffers]);
  } catch (error) {
    const e = error instanceof Error ? error : new Error(String(error));
    post({ type: "error", error: { name: e.name, message: e.message, ...(error instanceof ShareError ? { reason: error.reason } : {}) } }, []);
  }
}

function defaultWorker(): WorkerLike | undefined {
  if (typeof Worker === "undefined") return undefined;
  return new Worker(new URL("./share-worker-entry.ts", import.meta.url), { type: "module", name: "webcode-share" }) as unknown as WorkerLike;
}

/** Decodes a share link or .webcode file bytes (transferred: unusable afterwards). Throws ShareError. */
export function decodeShareInWorker(request: ShareDecodeRequest, createWorker: () => WorkerLike | undefined = defaultWorker): Promise<RestoredShare> {
  const worker = createWorker();
  if (!worker) {
    return new Promise((resolve, reject) => {
      setTimeout(() => {
        try {
          resolve(decode(request));
        } catch (error) {
          reject(error);
        }
      }, 0);
    });
  }
  return new Promise((resolve, reject) => {
    const finish = () => {
      worker.onmessage = null;
      worker.onerror = null;
      worker.terminate();
    };
    worker.onmessage = ({ data }) => {
      const message = data as ShareDecodeResponse;
      finish();
      if (message.type === "done") resolve(message.restored);
      else if (message.error.reason) reject(new ShareError(message.error.reason, message.error.message));
      else reject(new Error(`The share could not be read: ${message.error.message}`));
    };
    worker.onerror = (event) => {
      finish();
      reject(new Error(`The share could not be read: its worker failed (${event.message ?? "unknown error"}). Reload the page and try again.`));
    };
    if (request.type === "share-file") {
      const bytes = request.bytes.slice();
      worker.postMessage({ type: "share-file", bytes } satisfies ShareDecodeRequest, [bytes.buffer]);
    } else worker.postMessage(request, []);
  });
}
