// node:child_process in the browser runtime: a child is a command line the page runs in the
// browser runtime's shell (node-command.ts runChild), so it may be a node script, python3, git,
// npm or any shell command, and the run's permission gate sees what it runs. Each node child runs
// in a worker of its own on the isolated execution host, as its parent does. The child's output is
// captured and handed back when it ends (it is not streamed while it runs); the parent's file
// system takes the workspace as the child left it before 'exit' (worker-kit.ts spawn).
// The synchronous variants (execSync, spawnSync, execFileSync) block the program's worker on its
// shared mailbox while the page runs the child (worker-kit.ts spawnSync); without shared memory (a
// page that is not cross-origin isolated) they fail with one line. Not here: fork's IPC channel.
import events from "events/";
import stream from "readable-stream";
import { Buffer } from "buffer/";
import type { ChildResult, SpawnRequest } from "../../sandbox/protocol";
import type { ChildHandle } from "../../sandbox/worker-kit";
import { realSetTimeout, type EventLoop } from "../event-loop";
import { utilModule } from "../lazy-modules";
import { shellLine } from "../../../base";

type Signal = ChildResult["signal"] & string;
type StdioKind = "pipe" | "inherit" | "ignore";

export interface ChildProcessContext {
  loop: EventLoop;
  cwd(): string;
  resolve(cwd: string, path: string): string;
  env(): Record<string, string | undefined>;
  execPath: string;
  /** The parent's own output (stdio: "inherit"). */
  write(stream: "stdout" | "stderr", text: string): void;
  spawn(request: SpawnRequest): ChildHandle;
  /** Runs a child while the program waits; undefined when the worker cannot wait (no shared memory). */
  spawnSync(request: SpawnRequest): ChildResult | undefined;
}

interface SpawnOptions {
  cwd?: string | URL;
  env?: Record<string, string | undefined>;
  stdio?: StdioKind | Array<StdioKind | null | undefined | number>;
  shell?: boolean | string;
  encoding?: string;
  input?: string | Uint8Array;
  timeout?: number;
  killSignal?: string | number;
  maxBuffer?: number;
  argv0?: string;
  windowsHide?: boolean;
  /** fork's: its IPC channel's format ("json", the default, or "advanced": structured clone). */
  serialization?: "json" | "advanced";
  silent?: boolean;
  execArgv?: string[];
  execPath?: string;
}

/** Options only fork gives a child: an IPC channel. */
const IPC = Symbol("ipc");

function stdioOf(stdio: SpawnOptions["stdio"]): [StdioKind, StdioKind, StdioKind] {
  const kinds = Array.isArray(stdio) ? stdio : [stdio ?? "pipe", stdio ?? "pipe", stdio ?? "pipe"];
  const kind = (value: unknown, index: number): StdioKind =>
    value === "inherit" || value === index ? "inherit" : value === "ignore" ? "ignore" : "pipe";
  return [kind(kinds[0], 0), kind(kinds[1], 1), kind(kinds[2], 2)];
}

function stringEnv(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = String(value);
  return out;
}

/** The command line the shell runs for a child (a shell line as given, or the program and its arguments quoted). */
function commandLine(file: string, args: string[], shell: boolean, execPath: string): string {
  const program = file === execPath ? "node" : file;
  return shell ? [file, ...args].join(" ") : shellLine([program, ...args]);
}

/** A child the shell could not find: Node's ENOENT (the shell says 127 and "command not found"). */
function notFound(shell: boolean, result: ChildResult): boolean {
  return !shell && result.exitCode === 127 && /command not found|No such file/.test(result.stderr);
}

/** A value as it crosses a fork's IPC channel: JSON's copy (Node's default), or the structured clone the transport makes. */
export function ipcCopy(message: unknown, serialization: "json" | "advanced"): unknown {
  if (message === undefined) throw Object.assign(new TypeError('The "message" argument must be specified'), { code: "ERR_MISSING_ARGS" });
  return serialization === "json" ? (JSON.parse(JSON.stringify(message)) as unknown) : message;
}

export function createChildProcess(context: ChildProcessContext) {
  let pids = 100;

  class ChildProcess extends events.EventEmitter {
    pid: number | undefined = pids++;
    exitCode: number | null = null;
    signalCode: Signal | null = null;
    killed = false;
    connected = false;
    stdin: stream.Writable | null = null;
    stdout: stream.Readable | null = null;
    stderr: stream.Readable | null = null;
    stdio: Array<stream.Readable | stream.Writable | null>;
    spawnfile: string;
    spawnargs: string[];
    private handle: ChildHandle | undefined;
    /** fork: values sent before the child started, and how values are copied. */
    private readonly ipcQueue: unknown[] | undefined;
    private readonly serialization: "json" | "advanced" = "json";
    private ended = false;
    private pendingKill: Signal | undefined;

    constructor(file: string, args: string[], options: SpawnOptions) {
      super();
      this.spawnfile = file;
      this.spawnargs = [file, ...args];
      const [inKind, outKind, errKind] = stdioOf(options.stdio);
      const chunks: Buffer[] = [];
      if (inKind === "pipe") {
        this.stdin = new stream.Writable({
          write(chunk: Buffer | string, encoding: string, done: () => void) {
            chunks.push(typeof chunk === "string" ? Buffer.from(chunk, encoding as BufferEncoding) : Buffer.from(chunk));
            done();
          },
        });
      }
      if (outKind === "pipe") this.stdout = new stream.PassThrough();
      if (errKind === "pipe") this.stderr = new stream.PassThrough();
      if (options.encoding && options.encoding !== "buffer") {
        this.stdout?.setEncoding(options.encoding as BufferEncoding);
        this.stderr?.setEncoding(options.encoding as BufferEncoding);
      }
      this.stdio = [this.stdin, this.stdout, this.stderr];
      const ipc = (options as { [IPC]?: boolean })[IPC] === true;
      if (ipc) {
        this.ipcQueue = [];
        this.connected = true;
        this.serialization = options.serialization ?? "json";
      }
      const shell = options.shell !== undefined && options.shell !== false;
      const command = commandLine(file, args, shell, context.execPath);
      const cwdOption = options.cwd instanceof URL ? decodeURIComponent(options.cwd.pathname) : options.cwd;
      const cwd = cwdOption === undefined ? context.cwd() : context.resolve(context.cwd(), cwdOption);
      const env = stringEnv(options.env ?? context.env());
      context.loop.ref();
      // The child reads its whole input at the start: it starts once the program ended its stdin,
      // or, when the program wrote nothing to it by the next turn, with no input.
      const start = (input: string | null) => {
        if (this.ended || this.handle) return;
        // Killed before it started: it never runs.
        if (this.pendingKill) {
          const signal = this.pendingKill;
          return realSetTimeout(() => context.loop.guard(() => this.finish({ exitCode: null, signal, stdout: "", stderr: "" }, shell, outKind, errKind)), 0);
        }
        const handle = context.spawn({ command, cwd, env, stdin: input, ...(ipc ? { ipc: true } : {}) });
        this.handle = handle;
        if (handle.ipc) {
          handle.ipc.onMessage((data) => context.loop.guard(() => this.emit("message", data)));
          handle.ipc.onDisconnect(() => context.loop.guard(() => this.disconnected()));
          if (!this.connected) handle.ipc.disconnect();
          for (const data of this.ipcQueue!.splice(0)) handle.ipc.send(data);
        }
        void handle.result.then((result) => context.loop.guard(() => this.finish(result, shell, outKind, errKind)));
      };
      const stdin = this.stdin;
      if (!stdin) start(null);
      else {
        let written = false;
        const write = stdin.write.bind(stdin);
        stdin.write = ((...a: Parameters<stream.Writable["write"]>) => {
          written = true;
          return write(...a);
        }) as stream.Writable["write"];
        stdin.on("pipe", () => (written = true));
        stdin.on("finish", () => start(chunks.length > 0 ? Buffer.concat(chunks).toString() : null));
        if (options.input !== undefined) stdin.end(typeof options.input === "string" ? options.input : Buffer.from(options.input));
        else
          realSetTimeout(() => {
            if (!written && !stdin.writableEnded) stdin.end();
          }, 0);
      }
      queueMicrotask(() => context.loop.guard(() => this.emit("spawn")));
    }

    private finish(result: ChildResult, shell: boolean, outKind: StdioKind, errKind: StdioKind): void {
      this.ended = true;
      this.disconnected();
      if (notFound(shell, result)) {
        this.pid = undefined;
        const error = Object.assign(new Error(`spawn ${this.spawnfile} ENOENT`), {
          errno: -2, code: "ENOENT", syscall: `spawn ${this.spawnfile}`, path: this.spawnfile, spawnargs: this.spawnargs.slice(1),
        });
        this.stdout?.push(null);
        this.stderr?.push(null);
        this.emit("error", error);
        this.exitCode = -2;
        realSetTimeout(() => context.loop.guard(() => this.close(-2, null)), 0);
        return;
      }
      if (outKind === "pipe" && result.stdout) this.stdout!.push(Buffer.from(result.stdout));
      else if (outKind === "inherit") context.write("stdout", result.stdout);
      if (errKind === "pipe" && result.stderr) this.stderr!.push(Buffer.from(result.stderr));
      else if (errKind === "inherit") context.write("stderr", result.stderr);
      this.stdout?.push(null);
      this.stderr?.push(null);
      this.exitCode = result.exitCode;
      this.signalCode = result.signal;
      // 'exit', then 'close' once the output streams delivered what they had (as in Node).
      realSetTimeout(() => {
        context.loop.guard(() => this.emit("exit", result.exitCode, result.signal));
        realSetTimeout(() => context.loop.guard(() => this.close(result.exitCode, result.signal)), 0);
      }, 0);
    }

    private close(code: number | null, signal: Signal | null): void {
      this.emit("close", code, signal);
      context.loop.unref();
    }

    kill(signal: Signal | number = "SIGTERM"): boolean {
      if (this.ended) return false;
      const name: Signal = signal === 9 || signal === "SIGKILL" ? "SIGKILL" : signal === 2 || signal === "SIGINT" ? "SIGINT" : "SIGTERM";
      this.killed = true;
      if (this.handle) this.handle.kill(name);
      else this.pendingKill = name;
      return true;
    }

    ref(): void {}
    unref(): void {}

    /** The IPC channel closed (either end, or the child ended): 'disconnect', once. */
    private disconnected(): void {
      if (!this.connected) return;
      this.connected = false;
      this.emit("disconnect");
    }

    disconnect(): void {
      if (!this.connected) {
        this.emit("error", Object.assign(new Error("IPC channel is already disconnected"), { code: "ERR_IPC_DISCONNECTED" }));
        return;
      }
      this.handle?.ipc?.disconnect();
      // As Node: 'disconnect' comes on a later turn.
      realSetTimeout(() => context.loop.guard(() => this.disconnected()), 0);
    }

    send(message: unknown, ...rest: unknown[]): boolean {
      const callback = rest.find((item): item is (error: Error | null) => void => typeof item === "function");
      if (this.ipcQueue === undefined) throw Object.assign(new Error("child.send() needs an IPC channel: start the child with fork()"), { code: "ERR_WEBCODE_NO_IPC" });
      if (!this.connected) {
        const error = Object.assign(new Error("Channel closed"), { code: "ERR_IPC_CHANNEL_CLOSED" });
        if (callback) realSetTimeout(() => context.loop.guard(() => callback(error)), 0);
        else realSetTimeout(() => context.loop.guard(() => this.emit("error", error)), 0);
        return false;
      }
      const data = ipcCopy(message, this.serialization);
      if (this.handle?.ipc) this.handle.ipc.send(data);
      else this.ipcQueue.push(data);
      if (callback) realSetTimeout(() => context.loop.guard(() => callback(null)), 0);
      return true;
    }
  }

  type Callback = (error: Error | null, stdout: string | Buffer, stderr: string | Buffer) => void;

  const spawn = (file: string, args?: string[] | SpawnOptions, options?: SpawnOptions): ChildProcess => {
    if (!Array.isArray(args)) return new ChildProcess(file, [], (args as SpawnOptions | undefined) ?? {});
    return new ChildProcess(file, args.map(String), options ?? {});
  };

  /** exec and execFile: the whole output, then the callback (an error for a non-zero exit). */
  const collect = (child: ChildProcess, command: string, options: SpawnOptions, callback?: Callback) => {
    const asBuffer = options.encoding === "buffer";
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout?.on("data", (chunk: Buffer) => out.push(Buffer.from(chunk)));
    child.stderr?.on("data", (chunk: Buffer) => err.push(Buffer.from(chunk)));
    let failed: Error | undefined;
    child.on("error", (error: Error) => (failed = error));
    child.on("close", (code: number | null, signal: Signal | null) => {
      const stdout = asBuffer ? Buffer.concat(out) : Buffer.concat(out).toString();
      const stderr = asBuffer ? Buffer.concat(err) : Buffer.concat(err).toString();
      let error: Error | null = null;
      if (failed) error = failed;
      else if (code !== 0) {
        error = Object.assign(new Error(`Command failed: ${command}\n${stderr.toString()}`), { code, killed: child.killed, signal, cmd: command });
      }
      if (error) Object.assign(error, { stdout, stderr });
      callback?.(error, stdout, stderr);
    });
    return child;
  };

  function exec(command: string, options?: SpawnOptions | Callback, callback?: Callback) {
    if (typeof options === "function") [callback, options] = [options, {}];
    const opts = { ...(options ?? {}), shell: true };
    return collect(new ChildProcess(command, [], opts), command, opts, callback);
  }

  function execFile(file: string, args?: string[] | SpawnOptions | Callback, options?: SpawnOptions | Callback, callback?: Callback) {
    if (typeof args === "function") [callback, args, options] = [args, [], {}];
    else if (!Array.isArray(args)) [callback, options, args] = [options as Callback | undefined, args, []];
    if (typeof options === "function") [callback, options] = [options, {}];
    const opts = options ?? {};
    return collect(new ChildProcess(file, args.map(String), opts), [file, ...args].join(" "), opts, callback);
  }

  // util.promisify(exec) resolves to { stdout, stderr } and rejects with the error, as in Node.
  const promisified = (fn: (...args: never[]) => ChildProcess) =>
    (...args: unknown[]) =>
      new Promise((resolve, reject) => {
        const child = (fn as (...a: unknown[]) => ChildProcess)(...args, (error: Error | null, stdout: unknown, stderr: unknown) =>
          error ? reject(error) : resolve({ stdout, stderr }),
        );
        return child;
      });
  for (const fn of [exec, execFile]) {
    const custom = promisified(fn as never);
    Object.assign(fn, { [Symbol.for("nodejs.util.promisify.custom")]: custom, [utilModule().promisify.custom]: custom });
  }

  interface SyncResult {
    pid: number;
    output: Array<string | Buffer | null> | null;
    stdout: string | Buffer | null;
    stderr: string | Buffer | null;
    status: number | null;
    signal: Signal | null;
    error?: Error;
  }

  /** spawnSync: the child runs through the page while this worker waits for it (ChildProcessContext.spawnSync). */
  function spawnSync(file: string, args?: string[] | SpawnOptions, options?: SpawnOptions): SyncResult {
    return spawnSyncAs("spawnSync", file, args, options);
  }

  function spawnSyncAs(name: string, file: string, args?: string[] | SpawnOptions, options?: SpawnOptions): SyncResult {
    if (!Array.isArray(args)) [options, args] = [args, []];
    const opts = options ?? {};
    const list = args.map(String);
    const shell = opts.shell !== undefined && opts.shell !== false;
    const [, outKind, errKind] = stdioOf(opts.stdio);
    const cwdOption = opts.cwd instanceof URL ? decodeURIComponent(opts.cwd.pathname) : opts.cwd;
    const input = opts.input === undefined ? null : typeof opts.input === "string" ? opts.input : Buffer.from(opts.input).toString();
    const request: SpawnRequest = {
      command: commandLine(file, list, shell, context.execPath),
      cwd: cwdOption === undefined ? context.cwd() : context.resolve(context.cwd(), cwdOption),
      env: stringEnv(opts.env ?? context.env()),
      stdin: input,
      ...(opts.timeout ? { timeoutMs: opts.timeout } : {}),
    };
    const result = context.spawnSync(request);
    if (!result) {
      throw Object.assign(
        new Error(`child_process.${name} cannot wait for a child here: the page is not cross-origin isolated, so the program has no shared memory to block on. Use spawn or exec, or the WebContainer runtime.`),
        { code: "ERR_WEBCODE_NO_SHARED_MEMORY" },
      );
    }
    const pid = pids++;
    const syscall = `spawnSync ${file}`;
    if (notFound(shell, result)) {
      const error = Object.assign(new Error(`${syscall} ENOENT`), { errno: -2, code: "ENOENT", syscall, path: file, spawnargs: list });
      return { error, status: null, signal: null, output: null, pid: 0, stdout: null, stderr: null };
    }
    const text = opts.encoding !== undefined && opts.encoding !== "buffer";
    const shape = (value: string) => (text ? Buffer.from(value).toString(opts.encoding as BufferEncoding) : Buffer.from(value));
    const stdout = outKind === "pipe" ? shape(result.stdout) : null;
    const stderr = errKind === "pipe" ? shape(result.stderr) : null;
    if (outKind === "inherit") context.write("stdout", result.stdout);
    if (errKind === "inherit") context.write("stderr", result.stderr);
    const out: SyncResult = { status: result.exitCode, signal: result.signal, output: [null, stdout, stderr], pid, stdout, stderr };
    if (opts.timeout && result.signal === "SIGTERM" && result.exitCode === null) {
      out.error = Object.assign(new Error(`${syscall} ETIMEDOUT`), { errno: -110, code: "ETIMEDOUT", syscall, path: file, spawnargs: list });
    }
    return out;
  }

  /** Node's checkExecSyncError: the spawn error, or "Command failed" for a non-zero status, with the result's fields. */
  function checkExecSyncError(result: SyncResult, command: string): Error | undefined {
    if (result.error) return Object.assign(result.error, result);
    if (result.status === 0) return undefined;
    let message = `Command failed: ${command}`;
    if (result.stderr && result.stderr.length > 0) message += `\n${result.stderr.toString()}`;
    const { error: _none, ...fields } = result;
    return Object.assign(new Error(message), fields);
  }

  function execSync(command: string, options?: SpawnOptions): string | Buffer | null {
    const opts = options ?? {};
    // As Node: stderr is captured (for the error's message) and, unless stdio was given, also written to the program's own.
    const inheritStderr = opts.stdio === undefined;
    const result = spawnSyncAs("execSync", command, [], { ...opts, shell: true });
    if (inheritStderr && result.stderr) context.write("stderr", result.stderr.toString());
    const error = checkExecSyncError(result, command);
    if (error) throw error;
    return result.stdout;
  }

  function execFileSync(file: string, args?: string[] | SpawnOptions, options?: SpawnOptions): string | Buffer | null {
    if (!Array.isArray(args)) [options, args] = [args, []];
    const opts = options ?? {};
    const list = args.map(String);
    const inheritStderr = opts.stdio === undefined;
    const result = spawnSyncAs("execFileSync", file, list, opts);
    if (inheritStderr && result.stderr) context.write("stderr", result.stderr.toString());
    const error = checkExecSyncError(result, [opts.argv0 ?? file, ...list].join(" "));
    if (error) throw error;
    return result.stdout;
  }

  /** fork: node running the module, with an IPC channel; the child's output is the program's unless silent. */
  function fork(modulePath: string | URL, args?: string[] | SpawnOptions, options?: SpawnOptions): ChildProcess {
    if (!Array.isArray(args)) [options, args] = [args, []];
    const opts = options ?? {};
    const file = modulePath instanceof URL ? decodeURIComponent(modulePath.pathname) : String(modulePath);
    const stdio = opts.stdio ?? (opts.silent ? "pipe" : "inherit");
    return new ChildProcess(context.execPath, [...(opts.execArgv ?? []), file, ...args.map(String)], { ...opts, stdio, [IPC]: true } as SpawnOptions);
  }

  return {
    ChildProcess,
    spawn,
    exec,
    execFile,
    fork,
    execSync,
    execFileSync,
    spawnSync,
  };
}
