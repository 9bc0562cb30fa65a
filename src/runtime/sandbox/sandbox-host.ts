// The isolated execution host, page side: runs one program at a time in a worker that cannot reach
// the page (the endpoint decides how: a sandboxed iframe's worker in the page, a Node worker in
// tests), streams its output, replays its file changes and ends it at once on Ctrl-C, Stop or a
// timeout by terminating the worker. A fresh worker per run (nothing a program leaves behind reaches
// the next), with one spare started in the background so the next run does not wait for it; only a
// runtime that restores a fresh process state itself (python3) may keep its worker after a normal
// exit ("reusable"), and a spare is then handed its start files ("prepare") after a worker was ended.
// See docs/architecture.md "Isolated execution host".
import type { ChildExitMessage, ChildResult, CompiledEntries, FsOp, HostMessage, HttpResponsePart, ProgramSignal, RunMessage, SandboxEvent, SpawnRequest } from "./protocol";
import { MAILBOX_CAPACITY } from "./stdin-mailbox";
import { syncAnswerParts, type WorkspaceChanges } from "./sync-answer";
import { ConnectionRefusedError, LocalServers, headerList, isLocalUrl, type LocalHandler } from "./local-servers";

/** One worker in its isolated origin. Messages sent before it has started are queued by it. */
export interface SandboxEndpoint {
  send(message: HostMessage): void;
  /** Every event of the program, in the order it sent them. */
  onEvent(listener: (event: SandboxEvent) => void): void;
  /** The worker died without saying so (crashed, killed by the browser for its memory). */
  onCrash(listener: (message: string) => void): void;
  /** Ends the worker at once, whatever it is doing (an endless loop included). */
  terminate(): void;
}

export type SandboxEndpointFactory = () => SandboxEndpoint;

/** The terminal a program reads (a cooked tty: what was typed, a line at a time). */
export interface ProgramInput {
  /** The next text typed (a line with its newline, or what was there at Ctrl-D); null at the end of input. */
  read(): Promise<string | null>;
}

export interface SandboxRunOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  onStdout?: (text: string) => void;
  onStderr?: (text: string) => void;
  /** Keeps what the run compiled for later runs (RunMessage.compiled). */
  onCompiled?: (entries: CompiledEntries) => void;
  /** Replays one file change on the page; runs in order, awaited before the run's result. */
  onFsOp?: (op: FsOp) => Promise<void> | void;
  /** Answers the program's terminal reads (message.terminal); without it they see the end of input. */
  stdin?: ProgramInput;
  /**
   * Ctrl-C or Stop: aborted with the signal to send as its reason ("SIGINT" for Ctrl-C, "SIGTERM"
   * for Stop or the run's timeout; any other reason is taken as SIGTERM, as `kill` sends). A program
   * that handles that signal is sent it and given SIGNAL_GRACE_MS to end by itself; one that does
   * not is ended at once (exit 130 / 143), as by `signal` (which always ends it at once, exit 130).
   */
  interrupt?: AbortSignal;
  /** The program now handles a signal (process.on("SIGINT") or "SIGTERM"): its caller should leave it the grace period. */
  onHandlesSignals?: () => void;
  /**
   * Runs a child the program spawned (child_process), after the program's file changes so far were
   * replayed; `files` in the answer is the workspace after it, or for a synchronous child (`sync`:
   * the program waits blocked) `changes`, what the child changed. Without it, children fail (exit 127).
   */
  onSpawn?: (request: SpawnRequest, signal: AbortSignal, sync: boolean) => Promise<{ result: ChildResult; files?: ChildExitMessage["files"]; changes?: WorkspaceChanges }>;
  /** The run is a forked child: the token of its IPC channel to the program that forked it (IPC_CHANNEL_ENV). */
  ipc?: string;
}

/**
 * The variable a forked child's command line carries to its own node command (node-command.ts): the
 * token of its IPC channel to the program that forked it. The child's run takes it out of its
 * environment (as Node does NODE_CHANNEL_FD), so the child's own children do not inherit it.
 */
export const IPC_CHANNEL_ENV = "WEBCODE_IPC_CHANNEL";

/** A fork's IPC channel, between the parent's run and the child's run (which joins it by token). */
interface IpcChannel {
  /** The fork's id in the parent ("spawn" id). */
  spawnId: number;
  toParent(message: HostMessage): void;
  toChild?: (message: HostMessage) => void;
  /** What the parent sent before the child's run joined. */
  queue: HostMessage[];
}

const NO_CHILDREN = "child processes cannot be started here: only the shell's node command starts them\n";

/**
 * How long a program that handles SIGINT (Ctrl-C) or SIGTERM (Stop, a timeout) may take to finish
 * after the signal is sent, before it is ended as one that handles none is at once.
 */
export const SIGNAL_GRACE_MS = 3_000;

export type SandboxEnd = "exit" | "timeout" | "aborted" | "oom" | "crashed" | "fatal";

export interface SandboxRunResult {
  exitCode: number;
  end: SandboxEnd;
  /** For "crashed" and "fatal": what went wrong, in words for the user. */
  message?: string;
}

/** Exit codes as a shell reports a program ended from outside (128 + the signal's number for SIGINT, SIGTERM). */
export const EXIT_CODES = { timeout: 124, aborted: 130, terminated: 143, oom: 134, crashed: 1, fatal: 1 } as const;

/** The signal an interruption sends: its abort reason, "SIGINT" (Ctrl-C) or otherwise SIGTERM (Stop, a timeout). */
export function interruptSignal(interrupt: AbortSignal): ProgramSignal {
  return interrupt.reason === "SIGINT" ? "SIGINT" : "SIGTERM";
}

/** The exit code of a program a signal ended (as a shell reports it: 130 for SIGINT, 143 for SIGTERM). */
export function signalExitCode(name: ProgramSignal): number {
  return name === "SIGINT" ? EXIT_CODES.aborted : EXIT_CODES.terminated;
}

/** The line a command prints after its program's name ("node: out of memory (…)"), as a fatal OOM of Node. */
export const OOM_MESSAGE = "out of memory (the program ran out of memory and was stopped)";

/**
 * How long a run waits for its worker's first word ("ready", sent as soon as the worker listens,
 * before any runtime loads). A sandbox page that never loads (a server that forbids framing it, a
 * blocked worker) would otherwise leave node and python3 at "Loading…" for ever.
 */
export const START_TIMEOUT_MS = 10_000;

export const SANDBOX_DID_NOT_START =
  "The program sandbox did not start within 10 s (its page, /sandbox.html, did not load or could not start a worker), so nothing ran. Reload the page; if it keeps happening, the server does not let this page frame /sandbox.html (see scripts/response-headers.mjs).";

/** A worker and the run it serves now (one listener each for its whole life, whatever it runs). */
interface Worker {
  endpoint: SandboxEndpoint;
  /** It has sent an event (its "ready"): the sandbox started it. */
  started: boolean;
  /** Its runtime started (an earlier run, or a prepare): a run needs no start files. */
  booted: boolean;
  onEvent?: (event: SandboxEvent) => void;
  onCrash?: (message: string) => void;
}

export class SandboxHost {
  private spare: Worker | undefined;
  /** A worker whose runtime ended its last run normally and waits for the next one. */
  private idle: Worker | undefined;
  /** The start files of the last run that had some (kept by the page anyway), for a prepared spare. */
  private boot: RunMessage["boot"];
  private disposed = false;
  /** Open IPC channels of forked children, by token. */
  private readonly ipcChannels = new Map<string, IpcChannel>();
  /** Where the runs' servers are found by port (curl, the Preview, other programs reach them there). */
  readonly servers: LocalServers;

  constructor(
    private readonly createEndpoint: SandboxEndpointFactory,
    private readonly options: { keepSpare?: boolean; startTimeoutMs?: number; servers?: LocalServers } = {},
  ) {
    this.servers = options.servers ?? new LocalServers();
  }

  /** Starts a worker now, so the first run does not wait for it. */
  warm(): void {
    if (this.disposed || this.spare || this.idle) return;
    const spare = this.open();
    this.spare = spare;
    if (this.boot) {
      spare.endpoint.send({ type: "prepare", boot: this.boot });
      spare.booted = true;
    }
  }

  private open(): Worker {
    const worker: Worker = { endpoint: this.createEndpoint(), booted: false, started: false };
    worker.endpoint.onEvent((event) => {
      worker.started = true;
      worker.onEvent?.(event);
    });
    worker.endpoint.onCrash((message) => {
      if (worker.onCrash) return worker.onCrash(message);
      // A waiting worker died (the browser reclaimed it): the next run starts another.
      if (this.idle === worker) this.idle = undefined;
      if (this.spare === worker) this.spare = undefined;
    });
    return worker;
  }

  async run(message: RunMessage, options: SandboxRunOptions = {}): Promise<SandboxRunResult> {
    if (this.disposed) return { exitCode: 1, end: "fatal", message: "The program runner was shut down." };
    if (options.signal?.aborted) return { exitCode: EXIT_CODES.aborted, end: "aborted" };
    const worker = this.idle ?? this.spare ?? this.open();
    if (worker === this.idle) this.idle = undefined;
    else if (worker === this.spare) this.spare = undefined;
    if (message.boot) this.boot = message.boot;
    const { endpoint } = worker;
    let kept = false;
    let fsChain: Promise<void> = Promise.resolve();
    let fsError: unknown;
    const input = terminalReader(options.stdin);
    const serving = new RunServers(this.servers, (message) => endpoint.send(message));
    const children = new Map<number, AbortController>();
    /** The parts of a synchronous child's answer not yet taken by the waiting worker. */
    let syncParts: Uint8Array[] = [];
    /** This run's forks: spawn id → their IPC channel's token. */
    const forks = new Map<number, string>();
    const parentChannel = options.ipc !== undefined ? this.ipcChannels.get(options.ipc) : undefined;
    if (parentChannel) {
      parentChannel.toChild = (message) => endpoint.send(message);
      for (const queued of parentChannel.queue.splice(0)) endpoint.send(queued);
    }
    const result = await new Promise<SandboxRunResult>((resolve) => {
      let settled = false;
      const finish = (value: SandboxRunResult) => {
        if (settled) return;
        settled = true;
        serving.end();
        worker.onEvent = undefined;
        worker.onCrash = undefined;
        clearTimeout(timer);
        clearTimeout(startTimer);
        clearTimeout(graceTimer);
        options.signal?.removeEventListener("abort", onAbort);
        options.interrupt?.removeEventListener("abort", onInterrupt);
        // Children of a program that ended are ended with it.
        for (const controller of children.values()) controller.abort();
        for (const token of forks.values()) this.ipcChannels.delete(token);
        if (parentChannel) {
          parentChannel.toChild = undefined;
          parentChannel.toParent({ type: "ipc-disconnect", id: parentChannel.spawnId });
        }
        resolve(value);
      };
      const stop = (value: SandboxRunResult) => {
        clearTimeout(graceTimer);
        endpoint.terminate();
        finish(value);
      };
      // Signals the program handles: it is sent the signal and given SIGNAL_GRACE_MS to end by
      // itself (its handler's output and file changes are kept), then ended like any other.
      let handled: readonly ProgramSignal[] = [];
      let graceTimer: ReturnType<typeof setTimeout> | undefined;
      let signalled: SandboxRunResult | undefined;
      const interrupt = (name: ProgramSignal, value: SandboxRunResult) => {
        if (signalled) return;
        if (!handled.includes(name)) return stop(value);
        signalled = value;
        endpoint.send({ type: "signal", name });
        graceTimer = setTimeout(() => stop(value), SIGNAL_GRACE_MS);
      };
      const onAbort = () => stop({ exitCode: EXIT_CODES.aborted, end: "aborted" });
      options.signal?.addEventListener("abort", onAbort, { once: true });
      const onInterrupt = () => {
        const name = interruptSignal(options.interrupt!);
        interrupt(name, { exitCode: signalExitCode(name), end: "aborted" });
      };
      if (options.interrupt?.aborted) queueMicrotask(onInterrupt);
      else options.interrupt?.addEventListener("abort", onInterrupt, { once: true });
      const timer =
        options.timeoutMs !== undefined && Number.isFinite(options.timeoutMs)
          ? setTimeout(() => interrupt("SIGTERM", { exitCode: EXIT_CODES.timeout, end: "timeout" }), options.timeoutMs)
          : undefined;
      const startTimer = worker.started
        ? undefined
        : setTimeout(() => {
            // Ended like any other worker: the next run opens a new one (and the iframe endpoint
            // drops a frame that never loaded, so that run loads the page again).
            if (!worker.started) stop({ exitCode: EXIT_CODES.fatal, end: "fatal", message: SANDBOX_DID_NOT_START });
          }, this.options.startTimeoutMs ?? START_TIMEOUT_MS);
      worker.onEvent = (event) => {
        if (settled) return;
        if (startTimer !== undefined) clearTimeout(startTimer);
        switch (event.type) {
          case "ready":
            return;
          case "stdout":
            options.onStdout?.(event.data);
            return;
          case "stderr":
            options.onStderr?.(event.data);
            return;
          case "fs": {
            const apply = options.onFsOp;
            if (apply) fsChain = fsChain.then(() => apply(event.op)).catch((error: unknown) => void (fsError ??= error));
            return;
          }
          case "compiled":
            options.onCompiled?.(event.entries);
            return;
          case "stdin-read":
            void input(event.sync ? MAILBOX_CAPACITY : Number.POSITIVE_INFINITY).then((data) => {
              if (!settled) endpoint.send({ type: "stdin", data, sync: event.sync });
            });
            return;
          case "exit":
            if (!event.reusable) return stop({ exitCode: event.code, end: "exit" });
            kept = true;
            worker.booted = true;
            return finish({ exitCode: event.code, end: "exit" });
          case "spawn": {
            const controller = new AbortController();
            children.set(event.id, controller);
            const { id } = event;
            let request = event.request;
            const sync = event.sync === true;
            if (request.ipc && !sync) {
              const token = crypto.randomUUID();
              this.ipcChannels.set(token, { spawnId: id, queue: [], toParent: (message) => void (settled || endpoint.send(message)) });
              forks.set(id, token);
              request = { ...request, env: { ...request.env, [IPC_CHANNEL_ENV]: token } };
            }
            const spawn = options.onSpawn;
            const timeout = request.timeoutMs !== undefined && request.timeoutMs > 0 ? setTimeout(() => controller.abort("SIGTERM"), request.timeoutMs) : undefined;
            // After the file changes the program made before it (the child sees them).
            void fsChain
              .then(() => (spawn ? spawn(request, controller.signal, sync) : { result: { exitCode: 127, signal: null, stdout: "", stderr: NO_CHILDREN } }))
              .catch((error: unknown) => ({ result: { exitCode: 1, signal: null, stdout: "", stderr: `${describe(error)}\n` } as ChildResult }))
              .then(({ result, files, changes }: { result: ChildResult; files?: ChildExitMessage["files"]; changes?: WorkspaceChanges }) => {
                clearTimeout(timeout);
                children.delete(id);
                const token = forks.get(id);
                if (token !== undefined) this.ipcChannels.delete(token);
                forks.delete(id);
                if (settled) return;
                if (controller.signal.aborted && controller.signal.reason && typeof controller.signal.reason === "string") {
                  result = { ...result, exitCode: null, signal: controller.signal.reason as ChildResult["signal"] };
                }
                if (sync) {
                  syncParts = syncAnswerParts(result, changes);
                  return endpoint.send({ type: "sync-answer", data: syncParts.shift()! });
                }
                endpoint.send(files ? { type: "child-exit", id, result, files } : { type: "child-exit", id, result });
              });
            return;
          }
          case "thread-error":
          case "thread-message":
            // Only a thread's parent program hears these (its worker plays the page for it).
            return;
          case "ipc-send":
          case "ipc-close": {
            const message: HostMessage = event.type === "ipc-send" ? { type: "ipc-message", data: event.data } : { type: "ipc-disconnect" };
            if (event.id === undefined) {
              // From a forked child to the program that forked it.
              if (parentChannel) parentChannel.toParent({ ...message, id: parentChannel.spawnId });
              return;
            }
            const channel = this.ipcChannels.get(forks.get(event.id) ?? "");
            if (!channel) return;
            if (channel.toChild) channel.toChild(message);
            else channel.queue.push(message);
            return;
          }
          case "sync-next":
            endpoint.send({ type: "sync-answer", data: syncParts.shift() ?? null });
            return;
          case "child-kill":
            children.get(event.id)?.abort(event.signal);
            return;
          case "signals":
            handled = event.names;
            if (handled.length > 0) options.onHandlesSignals?.();
            return;
          case "server-listen":
            return serving.listen(event.port);
          case "server-close":
            return serving.close(event.port);
          case "http-fetch":
            return serving.fetch(event);
          case "http-fetch-abort":
            return serving.fetchAbort(event.id);
          case "http-head":
          case "http-body":
          case "http-end":
          case "http-error":
            return serving.answer(event);
          case "oom":
            return stop({ exitCode: EXIT_CODES.oom, end: "oom", message: OOM_MESSAGE });
          case "fatal":
            return stop({ exitCode: EXIT_CODES.fatal, end: "fatal", message: event.message });
        }
      };
      worker.onCrash = (text) =>
        finish(
          /memory/i.test(text)
            ? { exitCode: EXIT_CODES.oom, end: "oom", message: OOM_MESSAGE }
            : { exitCode: EXIT_CODES.crashed, end: "crashed", message: text },
        );
      if (worker.booted && message.boot) {
        const { boot: _started, ...rest } = message;
        endpoint.send(rest);
      } else endpoint.send(message);
    });
    if (kept && !this.disposed && !this.idle) this.idle = worker;
    else if (kept) endpoint.terminate();
    if (this.options.keepSpare !== false) this.warm();
    // Changes the program made before it ended are kept, also when it was stopped.
    await fsChain;
    if (fsError !== undefined && result.end === "exit") {
      return { exitCode: result.exitCode === 0 ? 1 : result.exitCode, end: "fatal", message: `A file change could not be saved: ${describe(fsError)}` };
    }
    return result;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const worker of [this.spare, this.idle]) worker?.endpoint.terminate();
    this.spare = undefined;
    this.idle = undefined;
  }
}

let nextRequestId = 1;

/** Statuses whose response has no body (the Response constructor refuses one). */
const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);

interface PendingRequest {
  head?: { resolve: (response: Response) => void; reject: (error: Error) => void };
  body?: ReadableStreamDefaultController<Uint8Array>;
}

/**
 * One run's servers: the ports it claimed in the registry, and its requests in flight, whose
 * answers arrive as events of the run (head, body chunks, end). All of it ends with the run.
 */
class RunServers {
  private readonly claimed = new Map<number, LocalHandler>();
  private readonly pending = new Map<number, PendingRequest>();
  private ended = false;

  constructor(
    private readonly registry: LocalServers,
    private readonly send: (message: HostMessage) => void,
  ) {}

  listen(asked: number): void {
    if (this.ended) return;
    let port = asked;
    const handler: LocalHandler = (request) => this.request(port, request);
    const given = this.registry.claim(asked, handler);
    if (given === undefined) return this.send({ type: "server-listen-answer", asked, error: "EADDRINUSE" });
    port = given;
    this.claimed.set(port, handler);
    this.send({ type: "server-listen-answer", asked, port });
  }

  close(port: number): void {
    const handler = this.claimed.get(port);
    if (!handler) return;
    this.claimed.delete(port);
    this.registry.release(port, handler);
  }

  private async request(port: number, request: Request): Promise<Response> {
    if (this.ended || !this.claimed.has(port)) throw new TypeError(`connect ECONNREFUSED 127.0.0.1:${port}`);
    const id = nextRequestId++;
    const body = request.method === "GET" || request.method === "HEAD" ? null : new Uint8Array(await request.arrayBuffer());
    const url = new URL(request.url);
    const headers = headerList(request.headers);
    if (!request.headers.has("host")) headers.unshift(["host", url.host]);
    // As a browser's network layer does for a body of known size: body parsers (Express's
    // express.json(), via type-is) read a body only when Content-Length or Transfer-Encoding says so.
    if (body && !request.headers.has("content-length") && !request.headers.has("transfer-encoding")) headers.push(["content-length", String(body.byteLength)]);
    return new Promise<Response>((resolve, reject) => {
      const entry: PendingRequest = { head: { resolve, reject } };
      this.pending.set(id, entry);
      const abort = () => {
        if (!this.pending.has(id)) return;
        this.pending.delete(id);
        this.send({ type: "http-abort", id });
        const error = new DOMException("The request was aborted", "AbortError");
        entry.head?.reject(error);
        entry.body?.error(error);
      };
      request.signal.addEventListener("abort", abort, { once: true });
      this.send({ type: "http-request", id, port, method: request.method, url: url.pathname + url.search, headers, body });
    });
  }

  answer(part: HttpResponsePart): void {
    const entry = this.pending.get(part.id);
    if (!entry) return;
    switch (part.type) {
      case "http-head": {
        const head = entry.head;
        entry.head = undefined;
        const headers = new Headers();
        for (const [name, value] of part.headers) {
          try {
            headers.append(name, value);
          } catch {
            // A value fetch refuses (a raw control character): left out rather than failing the response.
          }
        }
        const stream = NULL_BODY_STATUS.has(part.status)
          ? null
          : new ReadableStream<Uint8Array>({
              start: (controller) => {
                entry.body = controller;
              },
              cancel: () => {
                if (!this.pending.delete(part.id)) return;
                this.send({ type: "http-abort", id: part.id });
              },
            });
        // Chunked framing is the transport's business; the page's Response has its own.
        headers.delete("transfer-encoding");
        head?.resolve(new Response(stream, { status: part.status, statusText: part.statusText, headers }));
        return;
      }
      case "http-body":
        entry.body?.enqueue(part.data);
        return;
      case "http-end":
        this.pending.delete(part.id);
        entry.body?.close();
        return;
      case "http-error": {
        this.pending.delete(part.id);
        const error = new TypeError(part.message);
        entry.head?.reject(error);
        entry.body?.error(error);
        return;
      }
    }
  }

  private readonly outgoing = new Map<number, AbortController>();

  /** The program's own request: to a server of this tab's runs (only local URLs; other hosts are the egress gate's, not reachable from here). */
  fetch(event: Extract<SandboxEvent, { type: "http-fetch" }>): void {
    const answer = (part: HttpResponsePart) => {
      if (!this.ended) this.send({ type: "http-fetch-answer", part });
    };
    const id = event.id;
    if (!isLocalUrl(event.url)) {
      return answer({ type: "http-error", id, message: `http.request to ${event.url} is not available in the browser runtime: only servers of this tab (localhost:PORT) are reachable; use fetch(), or WebContainer` });
    }
    const controller = new AbortController();
    this.outgoing.set(id, controller);
    void (async () => {
      try {
        const headers = new Headers();
        for (const [name, value] of event.headers) headers.append(name, value);
        const response = await this.registry.fetch(event.url, { method: event.method, headers, body: event.body as BodyInit | null, signal: controller.signal });
        answer({ type: "http-head", id, status: response.status, statusText: response.statusText, headers: headerList(response.headers) });
        if (response.body) for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) answer({ type: "http-body", id, data: chunk });
        answer({ type: "http-end", id });
      } catch (error) {
        answer({ type: "http-error", id, message: error instanceof ConnectionRefusedError ? `connect ECONNREFUSED 127.0.0.1:${error.port}` : describe(error) });
      } finally {
        this.outgoing.delete(id);
      }
    })();
  }

  fetchAbort(id: number): void {
    this.outgoing.get(id)?.abort();
  }

  /** The run ended: its ports are free again, and its requests in flight fail as a dropped connection. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    for (const [port, handler] of this.claimed) this.registry.release(port, handler);
    for (const controller of this.outgoing.values()) controller.abort();
    this.claimed.clear();
    const error = new TypeError("socket hang up (the server's program ended)");
    for (const entry of this.pending.values()) {
      entry.head?.reject(error);
      try {
        entry.body?.error(error);
      } catch {
        // Already closed by its reader.
      }
    }
    this.pending.clear();
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Reads of the terminal, one after another, at most `limit` bytes each (the rest of a long line is
 * kept for the next read); after the end of input every read sees the end again, as a tty after ^D.
 */
function terminalReader(stdin: ProgramInput | undefined): (limit: number) => Promise<Uint8Array | null> {
  let pending = new Uint8Array();
  let chain: Promise<unknown> = Promise.resolve();
  const encoder = new TextEncoder();
  return (limit) => {
    const next = chain.then(async (): Promise<Uint8Array | null> => {
      if (pending.length === 0) {
        const text = stdin ? await stdin.read().catch(() => null) : null;
        if (text === null) return null;
        pending = encoder.encode(text);
      }
      const out = pending.subarray(0, Math.min(limit, pending.length));
      pending = pending.subarray(out.length);
      return out;
    });
    chain = next;
    return next;
  };
}
