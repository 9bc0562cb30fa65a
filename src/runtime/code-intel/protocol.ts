// The messages between the code service's worker and the page: numbered requests, one answer each.
// Hand-written because it is three methods over postMessage; a RPC library would weigh more.
import type { CodeService } from "./code-service";
import type { CodeQuery, CodeQueryResult, EditedFile, FileDiagnostics } from "./types";

/** A file's new text, or null when it was deleted. */
export interface FileUpdate {
  path: string;
  text: string | null;
}

/** What the workspace-side client needs from a code service, wherever it runs. */
export interface CodeServicePort {
  update(files: FileUpdate[]): Promise<void>;
  diagnose(edits: EditedFile[]): Promise<FileDiagnostics[]>;
  query(query: CodeQuery): Promise<CodeQueryResult>;
  /** Builds the program now (answers when done). */
  warm(): Promise<void>;
  close(): void;
}

type RequestBody =
  | { method: "update"; files: FileUpdate[] }
  | { method: "diagnose"; edits: EditedFile[] }
  | { method: "query"; query: CodeQuery }
  | { method: "warm" };
type Request = RequestBody & { id: number };

type Response = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: string };

export interface WorkerScope {
  onmessage: ((event: MessageEvent<Request>) => void) | null;
  postMessage(message: Response): void;
}

/** Inside the worker: answers requests in the order they come. */
export function serveCodeService(scope: WorkerScope, service: CodeService): void {
  let queue: Promise<void> = Promise.resolve();
  scope.onmessage = (event) => {
    const request = event.data;
    queue = queue.then(async () => {
      try {
        scope.postMessage({ id: request.id, ok: true, result: await handle(service, request) });
      } catch (error) {
        scope.postMessage({ id: request.id, ok: false, error: error instanceof Error ? error.message : String(error) });
      }
    });
  };
}

/** The same service in this thread (unit tests, the benchmark, a page without workers). */
export function inProcessPort(service: CodeService): CodeServicePort {
  let queue: Promise<unknown> = Promise.resolve();
  const run = <T>(request: Request) => {
    const next = queue.then(() => handle(service, request)) as Promise<T>;
    queue = next.catch(() => undefined);
    return next;
  };
  return {
    update: (files) => run({ id: 0, method: "update", files }),
    diagnose: (edits) => run({ id: 0, method: "diagnose", edits }),
    query: (query) => run({ id: 0, method: "query", query }),
    warm: () => run({ id: 0, method: "warm" }),
    close: () => undefined,
  };
}

async function handle(service: CodeService, request: Request): Promise<unknown> {
  switch (request.method) {
    case "update":
      for (const file of request.files) {
        if (file.text === null) service.deleteFile(file.path);
        else service.setFile(file.path, file.text);
      }
      return undefined;
    case "diagnose":
      return service.diagnose(request.edits);
    case "query":
      return service.query(request.query);
    case "warm":
      service.warm();
      return undefined;
  }
}

/** The page's side of a worker running serveCodeService. */
export function workerPort(worker: Worker): CodeServicePort {
  let nextId = 1;
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  const failAll = (error: Error) => {
    for (const entry of pending.values()) entry.reject(error);
    pending.clear();
  };
  worker.onmessage = (event: MessageEvent<Response>) => {
    const response = event.data;
    const entry = pending.get(response.id);
    if (!entry) return;
    pending.delete(response.id);
    if (response.ok) entry.resolve(response.result);
    else entry.reject(new Error(response.error));
  };
  worker.onerror = (event) => {
    event.preventDefault();
    failAll(new Error(`The code service stopped: ${event.message || "its worker failed to load"}`));
  };
  const call = <T>(message: RequestBody) =>
    new Promise<T>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      worker.postMessage({ ...message, id });
    });
  return {
    update: (files) => call({ method: "update", files }),
    diagnose: (edits) => call({ method: "diagnose", edits }),
    query: (query) => call({ method: "query", query }),
    warm: () => call({ method: "warm" }),
    close: () => {
      failAll(new Error("The code service was closed."));
      worker.terminate();
    },
  };
}
