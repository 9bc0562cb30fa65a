// The isolated execution host, worker side: what every language runtime in the sandboxed worker
// (node here; Pyodide can use the same) gets from the page: the run request, a synchronous file
// system whose changes flow back to the workspace, output streams and the exit.
import type { ChildResult, CompiledEntries, FsOp, ThreadMessage, HeaderList, HostMessage, HttpRequestMessage, HttpResponsePart, PrepareMessage, ProgramSignal, RunMessage, SandboxEvent, SpawnRequest } from "./protocol";
import { OutputBatcher } from "./output-batcher";
import { SandboxFs } from "./sandbox-fs";
import { take } from "./stdin-mailbox";
import { decodeSyncAnswer } from "./sync-answer";

export interface ProgramContext {
  readonly request: RunMessage;
  readonly fs: SandboxFs;
  write(stream: "stdout" | "stderr", text: string): void;
  /** The next bytes typed at the terminal (request.terminal), null at the end of input (Ctrl-D). */
  readTerminal(): Promise<Uint8Array | null>;
  /**
   * The same, blocking the worker until they come; undefined when this worker cannot block for
   * input (no cross-origin isolation, so no shared memory).
   */
  readTerminalSync(): Uint8Array | null | undefined;
  /**
   * Ends the program: the page terminates this worker when it hears it, unless `reusable` says the
   * runtime restores a fresh state for another run (then this worker waits for the next run).
   */
  exit(code: number, options?: { reusable?: boolean }): void;
  /** Reports running out of memory (the page prints a clear message and ends the worker). */
  outOfMemory(): void;
  /** The runtime itself failed. */
  fatal(message: string): void;
  /** Hands the page what this run compiled, for later runs (RunMessage.compiled); before exit(). */
  sendCompiled(entries: CompiledEntries): void;
  /** Tells the page which signals the program handles now: the page sends those (onSignal) and waits a grace period before ending it. */
  handlesSignals(names: ProgramSignal[]): void;
  /** Where a signal the program handles arrives. */
  onSignal(listener: (name: ProgramSignal) => void): void;
  /** The program's HTTP servers, reachable from the page as localhost:PORT (local-servers.ts). */
  readonly servers: ServerBridge;
  /**
   * Asks the page to run a child (child_process): it runs after the file changes made so far
   * reached the page; when it ends, `fs` already holds the workspace as the child left it.
   */
  spawn(request: SpawnRequest): ChildHandle;
  /**
   * The same, blocking the worker until the child ended (execSync, spawnSync); undefined when this
   * worker cannot block (no shared memory: the page is not cross-origin isolated).
   */
  spawnSync(request: SpawnRequest): ChildResult | undefined;
  /** When the run is a thread (request.thread): the messages between it and the program that started it. */
  readonly thread?: ThreadLink;
  /** When the run is a forked child (request.ipc): its IPC channel to the program that forked it. */
  readonly ipc?: IpcLink;
}

/** One end of a fork's IPC channel. */
export interface IpcLink {
  send(data: unknown): void;
  onMessage(listener: (data: unknown) => void): void;
  /** The other end closed the channel (or ended). */
  onDisconnect(listener: () => void): void;
  disconnect(): void;
}

export interface ChildHandle {
  result: Promise<ChildResult>;
  kill(signal: "SIGTERM" | "SIGKILL" | "SIGINT"): void;
  /** A child spawned with request.ipc (fork). */
  ipc?: IpcLink;
}

export interface ThreadLink {
  post(data: unknown, transfer?: Transferable[]): void;
  onMessage(listener: (data: unknown) => void): void;
  /** The thread's uncaught error, for its Worker's 'error' event in the parent. */
  error(error: unknown): void;
}

/** A server the program listens with, as the page routes requests to it. */
export interface ServerHandlers {
  request(message: HttpRequestMessage): void;
  abort(id: number): void;
}

export interface ServerBridge {
  /** Resolves with the port the page gave (a free one for 0); rejects with an Error whose code is EADDRINUSE when another run has it. */
  listen(port: number, handlers: ServerHandlers): Promise<number>;
  close(port: number): void;
  respond(part: HttpResponsePart): void;
  /**
   * The program's own request to a local server: this program's own server answers at once, another
   * run's through the page. The answer's parts arrive in order at `onPart`. Returns a way to abort.
   */
  fetch(request: { url: string; method: string; headers: HeaderList; body: Uint8Array | null }, onPart: (part: HttpResponsePart) => void): () => void;
}

/**
 * The worker's own timer and clock, taken before a runtime installs a program's globals (node's
 * setTimeout is the program's event loop; a program may fake both): output flushes run on these.
 */
const workerSetTimeout = globalThis.setTimeout.bind(globalThis);
const workerNow = performance.now.bind(performance);

/** Where the workspace is mounted (a child's changes are taken for everything under it). */
const WORKSPACE = "/workspace";

export type SandboxProgram = (context: ProgramContext) => void | Promise<void>;

export interface WorkerConnection {
  send(event: SandboxEvent, transfer?: Transferable[]): void;
  onMessage(listener: (message: HostMessage) => void): void;
  /** Where synchronous terminal reads are answered (stdin-mailbox.ts), when the worker has one. */
  mailbox?(): SharedArrayBuffer | undefined;
}

/** Waits for the run request, then runs the program: once, or again after a reusable exit. */
export function serveProgram(connection: WorkerConnection, program: SandboxProgram, options: { prepare?: (boot: PrepareMessage["boot"]) => void } = {}): void {
  let started = false;
  const waiting: Array<(data: Uint8Array | null) => void> = [];
  let signalListener: ((name: ProgramSignal) => void) | undefined;
  const servers = new Map<number, ServerHandlers>();
  /** The owner of each request in flight, so an abort reaches it. */
  const requests = new Map<number, ServerHandlers>();
  /** The program's own requests: negative ids for its own servers, positive for the page's. */
  const fetches = new Map<number, (part: HttpResponsePart) => void>();
  let nextFetchId = 1;
  const listens = new Map<number, Array<{ handlers: ServerHandlers; resolve: (port: number) => void; reject: (error: Error) => void }>>();
  let fs: SandboxFs | undefined;
  let nextChild = 1;
  const children = new Map<number, (result: ChildResult) => void>();
  /** IPC listeners: by fork id for this program's forks, under 0 for its own channel to its parent. */
  const ipcListeners = new Map<number, { message?: (data: unknown) => void; disconnect?: () => void; queue: unknown[] }>();
  const ipcEnd = (id: number) => {
    let entry = ipcListeners.get(id);
    if (!entry) ipcListeners.set(id, (entry = { queue: [] }));
    return entry;
  };
  const ipcLink = (id: number | undefined, send: (event: SandboxEvent) => void): IpcLink => ({
    send: (data) => send({ type: "ipc-send", id, data }),
    onMessage: (listener) => {
      const entry = ipcEnd(id ?? 0);
      entry.message = listener;
      for (const data of entry.queue.splice(0)) listener(data);
    },
    onDisconnect: (listener) => void (ipcEnd(id ?? 0).disconnect = listener),
    disconnect: () => send({ type: "ipc-close", id }),
  });
  let threadListener: ((data: unknown) => void) | undefined;
  const threadQueue: unknown[] = [];
  connection.onMessage((message) => {
    if (message.type === "thread-message") {
      if (threadListener) threadListener(message.data);
      else threadQueue.push(message.data);
      return;
    }
    if (message.type === "ipc-message") {
      const entry = ipcEnd(message.id ?? 0);
      if (entry.message) entry.message(message.data);
      else entry.queue.push(message.data);
      return;
    }
    if (message.type === "ipc-disconnect") return ipcListeners.get(message.id ?? 0)?.disconnect?.();
    if (message.type === "child-exit") {
      const done = children.get(message.id);
      children.delete(message.id);
      ipcListeners.delete(message.id);
      if (message.files) fs?.resync(message.files, WORKSPACE);
      return done?.(message.result);
    }
    if (message.type === "prepare") return options.prepare?.(message.boot);
    if (message.type === "server-listen-answer") {
      const waiting = listens.get(message.asked)?.shift();
      if (!waiting) return;
      if (message.port === undefined) {
        const code = message.error ?? "EADDRINUSE";
        const error = Object.assign(new Error(`listen ${code}: address already in use :::${message.asked}`), { code, errno: code === "EADDRINUSE" ? -98 : -13, syscall: "listen", address: "::", port: message.asked });
        if (code === "EACCES") error.message = `listen EACCES: permission denied :::${message.asked}`;
        return waiting.reject(error);
      }
      servers.set(message.port, waiting.handlers);
      return waiting.resolve(message.port);
    }
    if (message.type === "http-request") {
      const handlers = servers.get(message.port);
      if (!handlers) return connection.send({ type: "http-error", id: message.id, message: `connect ECONNREFUSED 127.0.0.1:${message.port}` });
      requests.set(message.id, handlers);
      return handlers.request(message);
    }
    if (message.type === "http-abort") return requests.get(message.id)?.abort(message.id);
    if (message.type === "http-fetch-answer") {
      const deliver = fetches.get(message.part.id);
      if (message.part.type === "http-end" || message.part.type === "http-error") fetches.delete(message.part.id);
      return deliver?.(message.part);
    }
    if (message.type === "signal") return signalListener?.(message.name);
    if (message.type === "stdin") {
      if (!message.sync) waiting.shift()?.(message.data);
      return;
    }
    if (message.type !== "run" || started) return;
    started = true;
    signalListener = undefined;
    let ended = false;
    // Output is joined when a program floods it (output-batcher.ts); whatever else the worker says
    // goes after the output written before it.
    const output = new OutputBatcher({
      send: (stream, data) => {
        if (!ended) connection.send({ type: stream, data });
      },
      schedule: (flush) => void workerSetTimeout(flush, 0),
      now: workerNow,
    });
    const send = (event: SandboxEvent, transfer?: Transferable[]) => {
      output.flush();
      if (!ended) connection.send(event, transfer);
    };
    fs = new SandboxFs((op: FsOp) => send({ type: "fs", op }), message);
    const context: ProgramContext = {
      request: message,
      fs: fs,
      write: (stream, text) => output.write(stream, text),
      readTerminal: () => {
        if (!message.terminal || ended) return Promise.resolve(null);
        return new Promise((resolve) => {
          waiting.push(resolve);
          send({ type: "stdin-read", sync: false });
        });
      },
      readTerminalSync: () => {
        if (!message.terminal || ended) return null;
        const mailbox = connection.mailbox?.();
        if (!mailbox) return undefined;
        return take(mailbox, () => send({ type: "stdin-read", sync: true }));
      },
      exit: (code, options) => {
        send(options?.reusable ? { type: "exit", code, reusable: true } : { type: "exit", code });
        ended = true;
        if (options?.reusable) {
          // Reads still waiting belong to the run that ended: they see the end of input.
          for (const resolve of waiting.splice(0)) resolve(null);
          started = false;
        }
      },
      outOfMemory: () => {
        send({ type: "oom" });
        ended = true;
      },
      fatal: (text) => {
        send({ type: "fatal", message: text });
        ended = true;
      },
      handlesSignals: (names) => send({ type: "signals", names }),
      sendCompiled: (entries) => send({ type: "compiled", entries }),
      onSignal: (listener) => {
        signalListener = listener;
      },
      servers: {
        listen: (port, handlers) =>
          new Promise<number>((resolve, reject) => {
            const queue = listens.get(port) ?? [];
            queue.push({ handlers, resolve, reject });
            listens.set(port, queue);
            send({ type: "server-listen", port });
          }),
        close: (port) => {
          if (!servers.delete(port)) return;
          send({ type: "server-close", port });
        },
        respond: (part) => {
          const done = part.type === "http-end" || part.type === "http-error";
          if (done) requests.delete(part.id);
          if (part.id > 0) return send(part);
          const deliver = fetches.get(part.id);
          if (done) fetches.delete(part.id);
          deliver?.(part);
        },
        fetch: (request, onPart) => {
          const url = new URL(request.url);
          const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
          const own = servers.get(port);
          if (own) {
            const id = -nextFetchId++;
            fetches.set(id, onPart);
            requests.set(id, own);
            own.request({ type: "http-request", id, port, method: request.method, url: url.pathname + url.search, headers: request.headers, body: request.body });
            return () => {
              if (fetches.delete(id)) own.abort(id);
            };
          }
          const id = nextFetchId++;
          fetches.set(id, onPart);
          send({ type: "http-fetch", id, ...request });
          return () => {
            if (fetches.delete(id)) send({ type: "http-fetch-abort", id });
          };
        },
      },
      spawn: (request) => {
        const id = nextChild++;
        const result = new Promise<ChildResult>((resolve) => children.set(id, resolve));
        send({ type: "spawn", id, request });
        return { result, kill: (signal) => send({ type: "child-kill", id, signal }), ipc: request.ipc ? ipcLink(id, send) : undefined };
      },
      spawnSync: (request) => {
        const mailbox = connection.mailbox?.();
        if (!mailbox || ended) return undefined;
        const id = nextChild++;
        const parts: Uint8Array[] = [];
        for (let part = take(mailbox, () => send({ type: "spawn", id, request, sync: true })); part !== null; part = take(mailbox, () => send({ type: "sync-next" }))) parts.push(part);
        const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
        let offset = 0;
        for (const part of parts) {
          bytes.set(part, offset);
          offset += part.length;
        }
        const answer = decodeSyncAnswer(bytes);
        if (answer.changes) fs?.takeChanges(answer.changes);
        return answer.result;
      },
      thread: message.thread
        ? {
            post: (data, transfer) => send({ type: "thread-message", data } satisfies ThreadMessage, transfer),
            onMessage: (listener) => {
              threadListener = listener;
              for (const data of threadQueue.splice(0)) listener(data);
            },
            error: (error) => send({ type: "thread-error", error }),
          }
        : undefined,
      ipc: message.ipc ? ipcLink(undefined, send) : undefined,
    };
    Promise.resolve()
      .then(() => program(context))
      .catch((error: unknown) => context.fatal(error instanceof Error ? error.message : String(error)));
  });
  connection.send({ type: "ready" });
}

/** The connection of a browser worker: the page's MessagePort arrives in the first message. */
export function browserWorkerConnection(scope: { addEventListener(type: "message", listener: (event: MessageEvent) => void): void }): WorkerConnection {
  let port: MessagePort | undefined;
  let mailbox: SharedArrayBuffer | undefined;
  const queue: SandboxEvent[] = [];
  const listeners: Array<(message: HostMessage) => void> = [];
  scope.addEventListener("message", (event: MessageEvent) => {
    const data = event.data as { type?: string; mailbox?: unknown } | undefined;
    if (data?.type !== "connect" || port || !event.ports[0]) return;
    port = event.ports[0];
    if (typeof SharedArrayBuffer === "function" && data.mailbox instanceof SharedArrayBuffer) mailbox = data.mailbox;
    port.onmessage = (portEvent: MessageEvent) => {
      for (const listener of listeners) listener(portEvent.data as HostMessage);
    };
    for (const queued of queue.splice(0)) port.postMessage(queued);
  });
  return {
    send: (event, transfer) => (port ? port.postMessage(event, transfer ?? []) : queue.push(event)),
    onMessage: (listener) => listeners.push(listener),
    mailbox: () => mailbox,
  };
}

/** The connection of a thread run in the same agent (in-process runs): its port to the program that started it. */
export function portConnection(port: MessagePort, mailbox?: SharedArrayBuffer): WorkerConnection {
  const listeners: Array<(message: HostMessage) => void> = [];
  port.onmessage = (event: MessageEvent) => {
    for (const listener of listeners) listener(event.data as HostMessage);
  };
  return {
    send: (event, transfer) => port.postMessage(event, transfer ?? []),
    onMessage: (listener) => listeners.push(listener),
    mailbox: () => mailbox,
  };
}
