// The messages between the page and a program running in the isolated execution host (the sandboxed
// worker of docs/architecture.md "Isolated execution host"). Shared by both sides; plain data only.

/** A file's content as the workspace keeps it: text as a string, other bytes as Uint8Array. */
export type FileData = string | Uint8Array;

/** A change a program made to its file system, replayed on the page through the workspace file service. */
export type FsOp =
  | { kind: "write"; path: string; data: FileData }
  | { kind: "mkdir"; path: string }
  | { kind: "remove"; path: string }
  | { kind: "rename"; from: string; to: string };

/** Page → worker: start one program. Paths are absolute (the shell's view: /workspace/...). */
/** Code a runtime compiled from `source` (node: sucrase's output and the static imports it found). */
export interface CompiledEntry {
  source: string;
  code: string;
  imports: string[];
}

/** Keyed by the runtime (node: "<format>:<file>"). */
export type CompiledEntries = Array<[key: string, entry: CompiledEntry]>;

export interface RunMessage {
  type: "run";
  /** Every file the program may read, with its content (the synchronous file system's start). */
  files: Array<[path: string, data: FileData]>;
  /** Folders, empty ones included. */
  dirs: string[];
  /** What the program is asked to do; its meaning belongs to the program's runtime (node's argv). */
  args: string[];
  env: Record<string, string>;
  cwd: string;
  /** Piped standard input, or null when there is none (reads see the end at once). */
  stdin: FileData | null;
  /**
   * What a fresh worker needs to start its runtime (Pyodide's files), by name. The host leaves it out
   * when it hands the run to a worker that kept its runtime from an earlier run.
   */
  boot?: Array<[name: string, data: Uint8Array]>;
  /**
   * Standard input is the terminal (stdin is then null): each read asks the page ("stdin-read") and
   * waits for what the user types, a line at a time, until Ctrl-D.
   */
  terminal?: boolean;
  /** What earlier runs compiled (compiled-store.ts), used only for the same source text. */
  compiled?: CompiledEntries;
  /**
   * The run is a thread of an existing program (node's worker_threads): the worker that started it
   * plays the page's part (its file system's snapshot is `files`/`dirs`; the thread's file changes
   * go back to it), and messages between the two travel as "thread-message"s on the same port.
   */
  thread?: ThreadStart;
  /** The program has an IPC channel to the program that forked it (node's process.send). */
  ipc?: boolean;
}

/** What a thread is started with (node: a Worker's threadId, workerData, and whether args hold code to evaluate). */
export interface ThreadStart {
  threadId: number;
  /** Structured-cloned from the parent's Worker options. */
  workerData: unknown;
  name: string;
  /** args is ["-e", code, ...argv] of a Worker with eval: true. */
  eval: boolean;
}

/** Both ways between a program and its thread: a value the program posted (structured-cloned, its transfer list transferred). */
export interface ThreadMessage {
  type: "thread-message";
  data: unknown;
}

/** Page → worker: start the runtime now with these files, so that the next run only executes. */
export interface PrepareMessage {
  type: "prepare";
  boot: Array<[name: string, data: Uint8Array]>;
}

/**
 * Page → worker: the answer to a "stdin-read", the bytes typed (null: end of input). `sync` answers
 * a worker that blocks while it waits (python's input()): those bytes go through the worker's shared
 * mailbox (stdin-mailbox.ts), not its message port, which it cannot read while it waits.
 */
export interface StdinMessage {
  type: "stdin";
  data: Uint8Array | null;
  sync: boolean;
}

/** Page → worker: Ctrl-C (SIGINT), or Stop or a timeout (SIGTERM), sent only for a signal the program handles. */
export interface SignalMessage {
  type: "signal";
  name: ProgramSignal;
}

/** The signals a program may handle before the page ends it (process.on("SIGINT") in node). */
export type ProgramSignal = "SIGINT" | "SIGTERM";

/** A header list as it travels: names as the sender spelt them, in order, repeated names kept. */
export type HeaderList = Array<[name: string, value: string]>;

/** Page → worker: the answer to a "server-listen": the port the server now has, or why not (Node's error code). */
export interface ServerListenAnswer {
  type: "server-listen-answer";
  /** The port asked for (0: any), which names the listen being answered. */
  asked: number;
  port?: number;
  error?: "EADDRINUSE" | "EACCES";
}

/** Page → worker: an HTTP request for the program's server on `port` (see local-servers.ts). */
export interface HttpRequestMessage {
  type: "http-request";
  id: number;
  port: number;
  method: string;
  /** The request target: path and query ("/api/hello?x=1"). */
  url: string;
  headers: HeaderList;
  body: Uint8Array | null;
}

/** Page → worker: the client of an HTTP request went away (curl stopped, the page navigated). */
export interface HttpAbortMessage {
  type: "http-abort";
  id: number;
}

/** Page → worker: one part of the answer to the program's own request (an "http-fetch" event with this id). */
export interface HttpFetchAnswer {
  type: "http-fetch-answer";
  part: HttpResponsePart;
}

export type HostMessage =
  | RunMessage
  | PrepareMessage
  | StdinMessage
  | SignalMessage
  | ServerListenAnswer
  | HttpRequestMessage
  | HttpAbortMessage
  | HttpFetchAnswer
  | ChildExitMessage
  | SyncAnswerMessage
  | ThreadMessage
  | IpcMessage;

/**
 * A value sent over a fork's IPC channel, or its end ("ipc-disconnect"). To a program that forked a
 * child, `id` names the child (its "spawn"); to the forked child itself there is none.
 */
export type IpcMessage = { type: "ipc-message"; id?: number; data: unknown } | { type: "ipc-disconnect"; id?: number };

/**
 * Page → worker: a part of the answer to a synchronous request (a "spawn" with `sync`), which the
 * worker waits for blocked: it goes through the worker's shared mailbox (stdin-mailbox.ts), in parts
 * of at most MAILBOX_CAPACITY bytes, each asked for with a "sync-next"; null ends the answer.
 */
export interface SyncAnswerMessage {
  type: "sync-answer";
  data: Uint8Array | null;
}

/** Worker → page: one part of the answer to an HttpRequestMessage, in this order: head, body chunks, end (or error at any point). */
export type HttpResponsePart =
  | { type: "http-head"; id: number; status: number; statusText: string; headers: HeaderList }
  | { type: "http-body"; id: number; data: Uint8Array }
  | { type: "http-end"; id: number }
  /** The server failed the request (the socket was destroyed before the response ended). */
  | { type: "http-error"; id: number; message: string };

/** What a program asks the page to run as its child (node's child_process): a shell command line. */
export interface SpawnRequest {
  /** The command line the browser runtime's shell runs (arguments already quoted for it). */
  command: string;
  cwd: string;
  env: Record<string, string>;
  /** Everything the child reads on its standard input (null: none). */
  stdin: string | null;
  /** Ended with SIGTERM after this many milliseconds (execSync's timeout option). */
  timeoutMs?: number;
  /** The child gets an IPC channel to the program (child_process.fork): "ipc-send"/"ipc-message" both ways. */
  ipc?: boolean;
}

/** How a child ended, with what it wrote (captured while it ran). */
export interface ChildResult {
  exitCode: number | null;
  signal: "SIGTERM" | "SIGKILL" | "SIGINT" | null;
  stdout: string;
  stderr: string;
}

/**
 * Page → worker: a child (a "spawn" event) ended. `files` is the workspace after it (the child may
 * have changed it): the worker's synchronous file system takes it before the program hears the end.
 */
export interface ChildExitMessage {
  type: "child-exit";
  id: number;
  result: ChildResult;
  files?: Pick<RunMessage, "files" | "dirs">;
}


/** Worker → page. */
export type SandboxEvent =
  | { type: "ready" }
  | { type: "stdout" | "stderr"; data: string }
  | { type: "fs"; op: FsOp }
  /** What this run compiled that the page did not hand in (sent before "exit"). */
  | { type: "compiled"; entries: CompiledEntries }
  /** The program reads its terminal input; answered by a StdinMessage. `sync`: at most MAILBOX_CAPACITY bytes. */
  | { type: "stdin-read"; sync: boolean }
  /** The program ended. `reusable`: the worker kept its runtime and takes the next run. */
  | { type: "exit"; code: number; reusable?: boolean }
  /** The program's runtime itself failed (not the program): shown to the user, exit code 1. */
  | { type: "fatal"; message: string }
  /** The program ran out of memory; the runtime caught it before the worker died. */
  | { type: "oom" }
  /** The signals the program handles now (sent when that changes): the page sends those instead of ending it at once. */
  | { type: "signals"; names: ProgramSignal[] }
  /** The program's server listens on `port` (0: any free port); answered by a ServerListenAnswer. */
  | { type: "server-listen"; port: number }
  /** The program's server on `port` closed: requests for it are refused from now on. */
  | { type: "server-close"; port: number }
  /** The program's HTTP request to localhost:PORT (http.request); answered by HttpFetchAnswer parts. */
  | { type: "http-fetch"; id: number; url: string; method: string; headers: HeaderList; body: Uint8Array | null }
  /** The program gave up its request (req.destroy()). */
  | { type: "http-fetch-abort"; id: number }
  | HttpResponsePart
  /**
   * Run a child (answered by a ChildExitMessage with the same id), after the file changes sent
   * before it. `sync`: the worker waits blocked; the answer is a SyncChildAnswer (sync-answer.ts)
   * sent as "sync-answer" parts.
   */
  | { type: "spawn"; id: number; request: SpawnRequest; sync?: boolean }
  /** The worker took a "sync-answer" part and waits for the next. */
  | { type: "sync-next" }
  /** The thread's uncaught error (a thread does not print it: its Worker emits 'error' in the parent). */
  | { type: "thread-error"; error: unknown }
  /** A value for the other end of an IPC channel: a forked child's (`id`, a "spawn"'s) or, without id, the program's parent. */
  | { type: "ipc-send"; id?: number; data: unknown }
  /** The program closes an IPC channel (subprocess.disconnect() with id, process.disconnect() without). */
  | { type: "ipc-close"; id?: number }
  | ThreadMessage
  /** End a running child (ChildProcess.kill()). */
  | { type: "child-kill"; id: number; signal: "SIGTERM" | "SIGKILL" | "SIGINT" };
