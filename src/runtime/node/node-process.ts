// Node's `process` and `console` for a program in the sandboxed worker: argv, env, cwd/chdir, exit
// and exitCode, stdout/stderr as writable streams, stdin as a readable stream over piped input,
// nextTick, hrtime, events ('exit', 'beforeExit', 'uncaughtException', 'unhandledRejection').
import { Buffer } from "buffer/";
import { EventEmitter } from "events/";
import { formatWithOptions, inspect } from "node-inspect-extracted";
import { Readable, Writable } from "readable-stream";
import type { EventLoop } from "./event-loop";
import { NODE_VERSION } from "./node-version";

/** Thrown by process.exit() to unwind the program's stack; the runtime swallows it. */
export class ExitSignal {
  constructor(readonly code: number) {}
}

export interface ProcessOptions {
  argv: string[];
  env: Record<string, string>;
  cwd: string;
  stdin: string | Uint8Array | null;
  /** Standard input is the terminal: each read waits for what the user types (null: Ctrl-D). */
  readTerminal?: () => Promise<Uint8Array | null>;
  loop: EventLoop;
  write(stream: "stdout" | "stderr", text: string): void;
  /** Ends the program with this code (after 'exit' listeners ran). */
  end(code: number): void;
  isDirectory(path: string): boolean;
  resolve(cwd: string, path: string): string;
}

export type NodeProcess = EventEmitter & {
  argv: string[];
  execArgv: string[];
  env: Record<string, string>;
  exitCode: number | undefined;
  stdout: Writable & { isTTY: boolean; columns: number; fd: number };
  stderr: Writable & { isTTY: boolean; columns: number; fd: number };
  stdin: Readable & { isTTY: boolean; fd: number };
  cwd(): string;
  exit(code?: number): never;
  nextTick(callback: (...args: unknown[]) => void, ...args: unknown[]): void;
  emitWarning(warning: string | Error, type?: string | { type?: string; code?: string }, code?: string): void;
  [key: string]: unknown;
};

const START = performance.now();

function exitCodeOf(code: unknown, fallback: number): number {
  if (code === undefined || code === null) return fallback;
  const n = typeof code === "string" ? Number(code) : code;
  if (typeof n !== "number" || !Number.isInteger(n)) {
    const error = new TypeError(`The "code" argument must be of type number. Received ${inspect(code)}`);
    (error as TypeError & { code: string }).code = "ERR_INVALID_ARG_TYPE";
    throw error;
  }
  return n & 0xff;
}

export function createProcess(options: ProcessOptions): NodeProcess {
  const process = new EventEmitter() as NodeProcess;
  let cwd = options.cwd;
  let exiting = false;
  let exitCode: number | undefined;

  const output = (stream: "stdout" | "stderr", fd: number) =>
    Object.assign(
      new Writable({
        decodeStrings: false,
        write(chunk: unknown, encoding: string, callback: (error?: Error | null) => void) {
          options.write(stream, typeof chunk === "string" ? chunk : Buffer.from(chunk as Uint8Array).toString(encoding === "buffer" ? "utf8" : (encoding as BufferEncoding)));
          callback();
        },
      }),
      { isTTY: false, columns: 80, rows: 24, fd, _isStdio: true },
    );
  // Standard output is never ended by the program (Node throws on it; closing it is ignored here).
  const stdout = output("stdout", 1);
  const stderr = output("stderr", 2);
  for (const stream of [stdout, stderr]) stream.destroy = (() => stream) as never;

  let stdinData: Uint8Array | null = options.stdin === null ? null : typeof options.stdin === "string" ? Buffer.from(options.stdin, "latin1") : options.stdin;
  const readTerminal = options.readTerminal;
  let terminalRead = false;
  const stdin = Object.assign(
    new Readable({
      read() {
        if (readTerminal) {
          // One read at a time; what arrives is pushed like any callback of the program's (a throw
          // from a 'data' listener is the program's uncaught exception).
          if (terminalRead) return;
          terminalRead = true;
          void readTerminal().then((data) => {
            terminalRead = false;
            options.loop.guard(() => this.push(data === null ? null : Buffer.from(data)));
          });
          return;
        }
        if (stdinData && stdinData.length > 0) this.push(Buffer.from(stdinData));
        stdinData = null;
        this.push(null);
      },
    }),
    {
      // The terminal is a tty in cooked mode: the shell echoes and edits the line, the program gets it at Enter.
      isTTY: readTerminal !== undefined,
      isRaw: false,
      fd: 0,
      /** Key-by-key (raw) input is not available: the terminal hands over whole lines; isRaw stays false. */
      setRawMode(this: Readable) {
        return this;
      },
    },
  );
  // Someone reading stdin keeps the program alive until it ends, as in Node.
  let stdinRef = false;
  const releaseStdin = () => {
    if (!stdinRef) return;
    stdinRef = false;
    options.loop.unref();
  };
  stdin.on("end", releaseStdin);
  stdin.on("close", releaseStdin);
  stdin.on("newListener", (event: string) => {
    if (!stdinRef && !stdin.readableEnded && (event === "data" || event === "readable" || event === "end")) {
      stdinRef = true;
      options.loop.ref();
    }
  });
  stdin.pause = function pause(this: Readable) {
    releaseStdin();
    return Readable.prototype.pause.call(this);
  } as never;
  // Resumed after a pause (readline's resume()): waiting for input keeps the program alive again.
  stdin.resume = function resume(this: Readable) {
    if (!stdinRef && !stdin.readableEnded && stdin.listenerCount("data") > 0) {
      stdinRef = true;
      options.loop.ref();
    }
    return Readable.prototype.resume.call(this);
  } as never;

  const exit = (code?: unknown): never => {
    // As in Node, the code is process.exitCode once the 'exit' listeners ran: one that sets it, or
    // calls process.exit(code) (tape does, to fail the run), decides how the program ends.
    if (code !== undefined) exitCode = exitCodeOf(code, 0);
    if (!exiting) {
      exiting = true;
      try {
        process.emit("exit", exitCode ?? 0);
      } catch {
        // A listener's process.exit() ends the listeners (its ExitSignal); one that throws does not
        // change how the program ends here.
      }
      options.loop.stop();
      options.end(exitCode ?? 0);
    }
    throw new ExitSignal(exitCode ?? 0);
  };

  const hrtime = (previous?: [number, number]): [number, number] => {
    const now = performance.now() + performance.timeOrigin;
    let seconds = Math.floor(now / 1000);
    let nanos = Math.floor((now % 1000) * 1e6);
    if (previous) {
      seconds -= previous[0];
      nanos -= previous[1];
      if (nanos < 0) {
        seconds -= 1;
        nanos += 1e9;
      }
    }
    return [seconds, nanos];
  };
  hrtime.bigint = () => BigInt(Math.round((performance.now() + performance.timeOrigin) * 1e6));

  Object.assign(process, {
    title: "node",
    version: NODE_VERSION,
    versions: { node: NODE_VERSION.slice(1), v8: "12.4.254.21-node.21", uv: "1.49.1", modules: "127" },
    release: { name: "node", lts: "Jod" },
    // Node's diagnostic report, as far as packages read it: napi-rs loaders ask it whether the C
    // library is glibc or musl (else they run `ldd`); the answer is glibc, as WebContainer's.
    report: {
      excludeNetwork: false,
      getReport: () => ({ header: { nodejsVersion: NODE_VERSION, glibcVersionRuntime: "2.36", glibcVersionCompiler: "2.28", platform: "linux", arch: "x64" }, sharedObjects: [] }),
      writeReport: () => "",
    },
    platform: "linux",
    arch: "x64",
    pid: 42,
    ppid: 1,
    argv: options.argv,
    argv0: "node",
    execArgv: [],
    execPath: "/usr/local/bin/node",
    env: { ...options.env },
    config: { variables: {} },
    features: {},
    stdout,
    stderr,
    stdin,
    cwd: () => cwd,
    chdir(dir: string) {
      const target = options.resolve(cwd, String(dir));
      if (!options.isDirectory(target)) {
        const error = Object.assign(new Error(`ENOENT: no such file or directory, chdir ${cwd} -> '${dir}'`), {
          code: "ENOENT",
          errno: -2,
          syscall: "chdir",
          path: cwd,
          dest: String(dir),
        });
        throw error;
      }
      cwd = target;
    },
    exit,
    abort: () => exit(134),
    kill: () => true,
    hrtime,
    uptime: () => (performance.now() - START) / 1000,
    memoryUsage: Object.assign(
      () => ({ rss: 50_000_000, heapTotal: 30_000_000, heapUsed: 20_000_000, external: 1_000_000, arrayBuffers: 100_000 }),
      { rss: () => 50_000_000 },
    ),
    cpuUsage: () => ({ user: Math.round((performance.now() - START) * 1000), system: 0 }),
    nextTick(callback: (...args: unknown[]) => void, ...args: unknown[]) {
      if (typeof callback !== "function") {
        throw Object.assign(new TypeError(`The "callback" argument must be of type function. Received ${inspect(callback)}`), { code: "ERR_INVALID_ARG_TYPE" });
      }
      options.loop.nextTick(() => callback(...args));
    },
    emitWarning(warning: string | Error, type?: string | { type?: string; code?: string }, code?: string) {
      const name = typeof type === "string" ? type : (type?.type ?? (warning instanceof Error ? warning.name : "Warning"));
      const tag = code ?? (typeof type === "object" ? type.code : undefined);
      const message = warning instanceof Error ? warning.message : String(warning);
      const trace = name === "DeprecationWarning" ? "--trace-deprecation" : "--trace-warnings";
      options.write("stderr", `(node:42) ${tag ? `[${tag}] ` : ""}${name}: ${message}\n(Use \`node ${trace} ...\` to show where the warning was created)\n`);
    },
    umask: () => 0o22,
    getuid: () => 1000,
    getgid: () => 1000,
    geteuid: () => 1000,
    getegid: () => 1000,
    binding(name: string) {
      throw new Error(`No such module: ${name}`);
    },
  });
  Object.defineProperty(process, "exitCode", {
    get: () => exitCode,
    set: (value: unknown) => {
      exitCode = value === undefined || value === null ? undefined : exitCodeOf(value, 0);
    },
    enumerable: true,
  });
  return process;
}

/** Node's console over the process's streams (util.format for arguments, as Node does). */
export function createConsole(process: NodeProcess): Console {
  const counts = new Map<string, number>();
  const timers = new Map<string, number>();
  let indent = "";
  // Node colours what console inspects when FORCE_COLOR asks for more than two colours (any value but
  // "0" and "false"), even when the output is not a terminal; our streams are never a colour terminal.
  const colors = () => {
    const force = process.env.FORCE_COLOR;
    return force !== undefined && force !== "0" && force !== "false";
  };
  const print = (stream: "stdout" | "stderr", args: unknown[]) => {
    const text = formatWithOptions({ colors: colors() }, ...(args as [unknown, ...unknown[]]));
    const indented = indent === "" ? text : text.split("\n").map((line) => indent + line).join("\n");
    process[stream].write(`${indented}\n`);
  };
  const console = {
    log: (...args: unknown[]) => print("stdout", args),
    info: (...args: unknown[]) => print("stdout", args),
    debug: (...args: unknown[]) => print("stdout", args),
    error: (...args: unknown[]) => print("stderr", args),
    warn: (...args: unknown[]) => print("stderr", args),
    trace: (...args: unknown[]) => {
      const error = new Error(formatWithOptions({}, ...(args as [unknown, ...unknown[]])));
      error.name = "Trace";
      print("stderr", [error.stack?.split("\n").filter((line, index) => index === 0 || !line.includes("node-process")).join("\n")]);
    },
    dir: (value: unknown, opts?: object) => process.stdout.write(`${inspect(value, { colors: colors(), ...opts })}\n`),
    dirxml: (...args: unknown[]) => print("stdout", args),
    assert: (condition: unknown, ...args: unknown[]) => {
      if (!condition) print("stderr", args.length > 0 ? [`Assertion failed: ${String(args[0])}`, ...args.slice(1)] : ["Assertion failed"]);
    },
    count: (label = "default") => {
      const n = (counts.get(label) ?? 0) + 1;
      counts.set(label, n);
      print("stdout", [`${label}: ${n}`]);
    },
    countReset: (label = "default") => void counts.delete(label),
    time: (label = "default") => void timers.set(label, performance.now()),
    timeEnd: (label = "default") => {
      const start = timers.get(label);
      if (start === undefined) return;
      timers.delete(label);
      print("stdout", [`${label}: ${formatMs(performance.now() - start)}`]);
    },
    timeLog: (label = "default", ...args: unknown[]) => {
      const start = timers.get(label);
      if (start !== undefined) print("stdout", [`${label}: ${formatMs(performance.now() - start)}`, ...args]);
    },
    group: (...args: unknown[]) => {
      if (args.length > 0) print("stdout", args);
      indent += "  ";
    },
    groupCollapsed: (...args: unknown[]) => console.group(...args),
    groupEnd: () => void (indent = indent.slice(2)),
    table: (data: unknown) => print("stdout", [data]),
  };
  return console as unknown as Console;
}

function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(3)}s` : `${ms.toFixed(3)}ms`;
}
