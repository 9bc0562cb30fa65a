// node:worker_threads in the browser runtime. A Worker is a thread of the program: the node runtime
// started again in a nested worker of the program's own (NodeHostHooks.startThread: a dedicated
// worker of the same script in the sandbox; another in-process instance in tests), so it stays on
// the isolated execution host. It speaks the sandbox protocol to this program, which plays the
// page's part for it: the thread starts from a snapshot of this program's file system, its file
// changes are made here too (and reach the workspace as this program's), its output is this
// program's, and values posted either way travel in order with them on one port (structured-cloned,
// transfer lists transferred; a SharedArrayBuffer is shared when the page is cross-origin isolated).
// MessagePorts in a transfer list (workerData's, postMessage's either way) travel as platform ports
// (message-ports.ts encode/decode), so their messages go straight between the threads.
// A thread's children (execSync too, on a mailbox this Worker answers) and servers run as this
// program's: this Worker relays them (thread-servers.ts for servers and requests).
// Not there: resourceLimits (kept, not applied: a browser worker has no heap limit of its own),
// SHARE_ENV (the thread gets a copy), fork from a thread. Hand-written: the protocol is ours.
import events from "events/";
import type { ChildResult, FsOp, HostMessage, SandboxEvent, SpawnRequest, ThreadStart } from "../../sandbox/protocol";
import type { WorkspaceChanges } from "../../sandbox/sync-answer";
import type { SandboxFs } from "../../sandbox/sandbox-fs";
import type { ChildHandle, ServerBridge, ThreadLink } from "../../sandbox/worker-kit";
import { createMailbox, put } from "../../sandbox/stdin-mailbox";
import { diffSnapshots, syncAnswerParts } from "../../sandbox/sync-answer";
import { realSetTimeout, type EventLoop } from "../event-loop";
import { createMessagePorts } from "./message-ports";
import { createThreadServerRelay, type ThreadServerRelay } from "./thread-servers";
import { NeedsWebContainerError, unsupportedFunction } from "./unsupported";

/** A started thread, as the host gives it (NodeHostHooks.startThread). */
export interface ThreadHandle {
  /** Hands the thread its end of the port to this program, and the mailbox it blocks on for execSync (none without shared memory). */
  connect(port: MessagePort, mailbox?: SharedArrayBuffer): void;
  /** Ends the thread at once, whatever it is doing. */
  terminate(): void;
  /** The thread died without a word (its worker crashed). */
  onCrash(listener: (message: string) => void): void;
}

export interface WorkerThreadsContext {
  loop: EventLoop;
  fs: SandboxFs;
  cwd(): string;
  resolve(cwd: string, path: string): string;
  env(): Record<string, string | undefined>;
  write(stream: "stdout" | "stderr", text: string): void;
  /** Runs a child of the program: a thread's children are run as the program's (the thread asks, the program relays). */
  spawn?: (request: SpawnRequest) => ChildHandle;
  /** The program's servers and local requests: a thread's are relayed through them (thread-servers.ts). */
  servers?: ServerBridge;
  /** Starts a thread; undefined where the host cannot (the one line then names WebContainer). */
  startThread?: () => ThreadHandle;
  /** This run is itself a thread: what it was started with, and its link to the program that started it. */
  thread?: { start: ThreadStart; link: ThreadLink };
}

interface WorkerOptions {
  eval?: boolean;
  workerData?: unknown;
  argv?: unknown[];
  env?: Record<string, string | undefined> | symbol;
  transferList?: Transferable[];
  name?: string;
  resourceLimits?: Record<string, number>;
  stdout?: boolean;
  stderr?: boolean;
  stdin?: boolean;
}

/** Node's resourceLimits for a worker started without any: -1 is "V8's default" (nothing is enforced in a browser worker). */
const UNLIMITED: Readonly<Record<string, number>> = { maxYoungGenerationSizeMb: -1, maxOldGenerationSizeMb: -1, codeRangeSizeMb: -1, stackSizeMb: 4 };

const SHARE_ENV = Symbol.for("nodejs.worker_threads.SHARE_ENV");
const EventEmitter = events as unknown as { new (): NodeJS.EventEmitter };
/** The platform's channel, taken before the program's globals are installed (its `MessageChannel` is Node's). */
const PlatformMessageChannel = globalThis.MessageChannel;

function nodeError(code: string, message: string, Type: ErrorConstructor | TypeErrorConstructor = Error): Error {
  const error = new Type(message);
  Object.defineProperty(error, "code", { value: code, enumerable: false, writable: true, configurable: true });
  error.name = `${Type === TypeError ? "TypeError" : "Error"}`;
  return error;
}

export function createWorkerThreads(context: WorkerThreadsContext): Record<string, unknown> {
  const environment = new Map<unknown, unknown>();
  const ports = createMessagePorts(context.loop);
  const { loop } = context;
  let nextThreadId = 1;

  class Worker extends EventEmitter {
    readonly threadId: number;
    private readonly limits: Record<string, number>;
    readonly stdin = null;
    readonly stdout = null;
    readonly stderr = null;
    readonly performance = { eventLoopUtilization: () => ({ idle: 0, active: 0, utilization: 0 }) };
    private readonly port: MessagePort;
    private readonly handle: ThreadHandle;
    private ended = false;
    private refed = true;
    private exitCode: number | undefined;
    private exitWaiters: Array<(code: number) => void> = [];
    private readonly children = new Map<number, ChildHandle>();
    private readonly relay: ThreadServerRelay | undefined;
    /** Where the thread, blocked in execSync or a sync stdin read, takes its answer (as a program takes the page's). */
    private readonly mailbox = createMailbox();
    private syncParts: Uint8Array[] = [];

    constructor(filename: string | URL, options: WorkerOptions = {}) {
      super();
      if (!context.startThread) throw new NeedsWebContainerError("node:worker_threads Worker (this host starts no threads)");
      const args = threadArgs(filename, options);
      this.threadId = nextThreadId++;
      this.limits = { ...UNLIMITED, ...(options.resourceLimits ?? {}) };
      const env = options.env === undefined || options.env === SHARE_ENV || typeof options.env === "symbol" ? context.env() : options.env;
      const sent = ports.encode(options.workerData, options.transferList);
      const start: ThreadStart = { threadId: this.threadId, workerData: sent.data, name: options.name ?? "", eval: options.eval === true };
      const channel = new PlatformMessageChannel();
      this.port = channel.port1;
      // A Node MessagePort (in-process runs) would keep that process alive; the program's refs decide.
      (this.port as { unref?: () => void }).unref?.();
      this.relay = context.servers ? createThreadServerRelay(context.servers, (message) => this.send(message)) : undefined;
      this.handle = context.startThread();
      this.handle.onCrash((message) => loop.guard(() => this.fail(new Error(message))));
      this.handle.connect(channel.port2, this.mailbox);
      this.port.onmessage = (event: MessageEvent) => loop.guard(() => this.onEvent(event.data as SandboxEvent));
      loop.ref();
      this.port.postMessage(
        { type: "run", ...context.fs.snapshot(), args, env: { ...POOL_DEFAULTS, ...stringEnv(env) }, cwd: context.cwd(), stdin: null, thread: start } satisfies HostMessage,
        sent.transfer,
      );
    }

    /** Node's answer for a running worker: the limits asked for over V8's defaults (0s: none); {} once it ended. None is enforced here. */
    get resourceLimits(): Record<string, number> {
      return this.ended ? {} : { ...this.limits };
    }

    private send(message: HostMessage, transfer: Transferable[] = []): void {
      if (!this.ended) this.port.postMessage(message, transfer);
    }

    private onEvent(event: SandboxEvent): void {
      if (this.ended || this.relay?.handle(event)) return;
      switch (event.type) {
        case "ready":
          return void this.emit("online");
        case "stdout":
        case "stderr":
          return context.write(event.type, event.data);
        case "fs":
          return this.applyFs(event.op);
        case "thread-message":
          return void this.emit("message", ports.decode(event.data));
        case "thread-error":
          return this.fail(event.error);
        case "exit":
          return this.end(event.code);
        case "fatal":
          return this.fail(new Error(event.message));
        case "oom":
          return this.fail(nodeError("ERR_WORKER_OUT_OF_MEMORY", "Worker terminated due to reaching memory limit: JS heap out of memory"));
        case "stdin-read":
          // A thread's standard input is empty, as in Node (worker.stdin is null unless asked for).
          if (event.sync && this.mailbox) return put(this.mailbox, null);
          return this.send({ type: "stdin", data: null, sync: false });
        case "spawn":
          return event.sync ? this.spawnChildSync(event.request) : this.spawnChild(event.id, event.request);
        case "sync-next":
          if (this.mailbox) put(this.mailbox, this.syncParts.shift() ?? null);
          return;
        case "child-kill":
          return this.children.get(event.id)?.kill(event.signal);
        case "server-listen":
          return this.send({ type: "server-listen-answer", asked: event.port, error: "EACCES" });
        case "http-fetch":
          return this.send({ type: "http-fetch-answer", part: { type: "http-error", id: event.id, message: THREAD_LIMIT("http requests") } });
        default:
          return;
      }
    }

    /**
     * The thread's child, run as the program's own (its output captured the same way); when it ends the
     * thread takes the program's files, which have the child's changes. Forking from a thread (an IPC
     * channel to it) is refused with the one line.
     */
    private spawnChild(id: number, request: SpawnRequest): void {
      if (!context.spawn || request.ipc) {
        const what = request.ipc ? "child_process.fork" : "child processes";
        return this.send({ type: "child-exit", id, result: { exitCode: 127, signal: null, stdout: "", stderr: `${THREAD_LIMIT(what)}\n` } });
      }
      const child = context.spawn(request);
      this.children.set(id, child);
      void child.result.then((result) => {
        this.children.delete(id);
        this.send({ type: "child-exit", id, result, files: context.fs.snapshot() });
      });
    }

    /**
     * The thread's execSync/spawnSync: the thread waits blocked on the mailbox while this program runs
     * the child as its own (it is not blocked); the answer and the child's file changes go back in parts.
     */
    private spawnChildSync(request: SpawnRequest): void {
      const mailbox = this.mailbox;
      if (!mailbox) return;
      const answer = (result: ChildResult, changes?: WorkspaceChanges) => {
        this.syncParts = syncAnswerParts(result, changes);
        put(mailbox, this.syncParts.shift()!);
      };
      if (!context.spawn || request.ipc) return answer({ exitCode: 127, signal: null, stdout: "", stderr: `${THREAD_LIMIT("child processes")}\n` });
      const before = context.fs.snapshot();
      void context.spawn(request).result.then((result) => {
        if (this.ended) return;
        const after = context.fs.snapshot();
        answer(result, diffSnapshots(new Map(before.files), new Map(after.files), new Set(before.dirs), new Set(after.dirs)));
      });
    }

    private applyFs(op: FsOp): void {
      try {
        context.fs.apply(op);
      } catch {
        // The program changed the same path meanwhile in a way the thread's change no longer fits (its folder went away): the program's stands.
      }
    }

    /** An uncaught error in the thread: 'error' with it, then 'exit' with 1, as Node. */
    private fail(error: unknown): void {
      if (this.ended) return;
      this.emit("error", error);
      this.end(1);
    }

    private end(code: number): void {
      if (this.ended) return;
      this.ended = true;
      this.exitCode = code;
      this.handle.terminate();
      this.port.close();
      this.relay?.close();
      for (const child of this.children.values()) child.kill("SIGTERM");
      this.children.clear();
      // 'exit' comes as Node's does, after the current callback; the program may end only after it.
      realSetTimeout(() => {
        loop.guard(() => this.emit("exit", code));
        for (const resolve of this.exitWaiters.splice(0)) resolve(code);
        if (this.refed) loop.unref();
        this.refed = false;
      }, 0);
    }

    postMessage(value: unknown, transferList?: readonly Transferable[]): void {
      if (this.ended) return;
      const { data, transfer } = ports.encode(value, transferList);
      this.send({ type: "thread-message", data }, transfer);
    }

    terminate(callback?: (error: Error | null, code?: number) => void): Promise<number | undefined> {
      const ended = this.ended;
      const done = ended ? Promise.resolve(this.exitCode) : new Promise<number>((resolve) => this.exitWaiters.push(resolve));
      this.end(1);
      if (callback) void done.then((code) => callback(null, code));
      return ended ? Promise.resolve(undefined) : done;
    }

    ref(): void {
      if (this.ended || this.refed) return;
      this.refed = true;
      loop.ref();
    }

    unref(): void {
      if (this.ended || !this.refed) return;
      this.refed = false;
      loop.unref();
    }

    getHeapSnapshot(): Promise<never> {
      return Promise.reject(new NeedsWebContainerError("node:worker_threads Worker.getHeapSnapshot()"));
    }
  }

  /** Where a thread's args come from: a file (a path or file: URL) or, with eval, code. */
  function threadArgs(filename: string | URL, options: WorkerOptions): string[] {
    const argv = (options.argv ?? []).map(String);
    if (options.eval) {
      if (typeof filename !== "string") throw nodeError("ERR_INVALID_ARG_VALUE", "The argument 'filename' must be a string when eval is true", TypeError);
      return ["-e", filename, ...argv];
    }
    let path: string;
    if (filename instanceof URL || (typeof filename === "object" && filename !== null && "href" in filename)) {
      const url = new URL(String((filename as URL).href));
      if (url.protocol !== "file:") throw nodeError("ERR_WORKER_UNSUPPORTED_PROTOCOL", `The worker script or module filename must be an absolute path or a relative path starting with './' or '../'. Received "${url.href}"`, TypeError);
      path = decodeURIComponent(url.pathname);
    } else if (typeof filename === "string") {
      if (filename.startsWith("file:")) path = decodeURIComponent(new URL(filename).pathname);
      else if (filename.startsWith("/") || filename.startsWith("./") || filename.startsWith("../")) path = filename;
      else throw nodeError("ERR_WORKER_PATH", `The worker script or module filename must be an absolute path or a relative path starting with './' or '../'. Received "${filename}"`, TypeError);
    } else throw nodeError("ERR_INVALID_ARG_TYPE", `The "filename" argument must be of type string or an instance of URL`, TypeError);
    return [context.resolve(context.cwd(), path), ...argv];
  }

  const thread = context.thread;
  return {
    isMainThread: thread === undefined,
    parentPort: thread ? createParentPort(thread.link, loop, ports) : null,
    workerData: thread ? ports.decode(thread.start.workerData) : null,
    threadId: thread ? thread.start.threadId : 0,
    resourceLimits: thread ? { ...UNLIMITED } : {},
    SHARE_ENV,
    Worker,
    MessageChannel: ports.MessageChannel,
    MessagePort: ports.MessagePort,
    BroadcastChannel: globalThis.BroadcastChannel,
    markAsUntransferable: () => undefined,
    moveMessagePortToContext: unsupportedFunction("worker_threads", "moveMessagePortToContext"),
    postMessageToThread: unsupportedFunction("worker_threads", "postMessageToThread"),
    receiveMessageOnPort: (port: unknown) => (port !== null && typeof port === "object" && RECEIVE in port ? (port as { [RECEIVE]: () => { message: unknown } | undefined })[RECEIVE]() : ports.receiveMessageOnPort(port)),
    setEnvironmentData: (key: unknown, value: unknown) => (value === undefined ? environment.delete(key) : environment.set(key, value)),
    getEnvironmentData: (key: unknown) => environment.get(key),
  };
}

/**
 * What a thread's env has unless the program says otherwise. piscina and tinypool (vitest's pool) by
 * default block their idle threads in Atomics.wait and then take tasks with receiveMessageOnPort; a
 * thread blocked there never gets a port's message here (the platform delivers it as a task), so the
 * pool would wait forever. Both read this variable and then wait for the 'message' event instead.
 */
const POOL_DEFAULTS: Readonly<Record<string, string>> = { PISCINA_DISABLE_ATOMICS: "1" };

/** parentPort's synchronous receive (receiveMessageOnPort), as a MessagePort's. */
const RECEIVE = Symbol("receive");

const THREAD_LIMIT = (what: string) => `${what} from a worker thread: not available in the browser runtime yet (start them from the main thread, or run the project in WebContainer)`;

/**
 * A thread's parentPort: a MessagePort's shape over the link to the program that started it. While
 * it has 'message' listeners (and is not unref()'d) it keeps the thread running, as in Node; values
 * that arrive before a listener wait for it.
 */
function createParentPort(link: ThreadLink, loop: EventLoop, ports: Pick<ReturnType<typeof createMessagePorts>, "encode" | "decode">) {
  const port = new EventEmitter() as NodeJS.EventEmitter & Record<string, unknown>;
  const waiting: unknown[] = [];
  let listening = false;
  let wantRef = true;
  let refed = false;
  let closed = false;
  const setRef = () => {
    const should = listening && wantRef && !closed;
    if (should === refed) return;
    refed = should;
    if (should) loop.ref();
    else loop.unref();
  };
  link.onMessage((sent) => {
    if (closed) return;
    const data = ports.decode(sent);
    if (port.listenerCount("message") === 0) return void waiting.push(data);
    loop.guard(() => port.emit("message", data));
  });
  port.on("newListener", (name: string) => {
    if (name !== "message") return;
    listening = true;
    setRef();
    // Values that came before the first listener, delivered after it was added (as a port starts).
    if (waiting.length > 0) realSetTimeout(() => {
      for (const data of waiting.splice(0)) loop.guard(() => port.emit("message", data));
    }, 0);
  });
  port.on("removeListener", (name: string) => {
    if (name !== "message" || port.listenerCount("message") > 0) return;
    listening = false;
    setRef();
  });
  Object.assign(port, {
    [RECEIVE]: () => (waiting.length > 0 ? { message: waiting.shift() } : undefined),
    postMessage: (value: unknown, transferList?: readonly Transferable[]) => {
      if (closed) return;
      const { data, transfer } = ports.encode(value, transferList);
      link.post(data, transfer);
    },
    start: () => undefined,
    close: () => {
      if (closed) return;
      closed = true;
      setRef();
      realSetTimeout(() => loop.guard(() => port.emit("close")), 0);
    },
    ref: () => {
      wantRef = true;
      setRef();
      return port;
    },
    unref: () => {
      wantRef = false;
      setRef();
      return port;
    },
    hasRef: () => refed,
  });
  return port;
}

function stringEnv(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = String(value);
  return out;
}
