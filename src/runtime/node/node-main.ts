// `node` inside the sandboxed worker: reads the command line (FILE, -e, -p, --test, --version),
// builds the program's process, built-ins and module loader, runs it, and ends it as Node would:
// when nothing keeps it alive, on process.exit(), or on an uncaught error printed as Node prints it.
import { Buffer } from "buffer/";
import "./buffer-base64url";
import type { IpcLink, ProgramContext } from "../sandbox/worker-kit";
import type { ProgramSignal } from "../sandbox/protocol";

/** The signals a program may handle (process.on) before it is ended. */
const PROGRAM_SIGNALS: readonly ProgramSignal[] = ["SIGINT", "SIGTERM"];
import { resolvePath } from "../sandbox/sandbox-fs";
import { createBuiltins } from "./builtins";
import type { ThreadHandle } from "./builtins/worker-threads";
import { REPORTERS, type ReporterName } from "./builtins/test-reporters";
import { createTestModule, type TestModule } from "./builtins/test-runner";
import { formatUncaught, programStack, unhandledRejectionError } from "./error-print";
import { EventLoop, nodeTimers, realSetTimeout } from "./event-loop";
import { ipcCopy } from "./builtins/child-process";
import { ModuleLoader, NodeModule } from "./module-loader";
import { ExitSignal, createConsole, createProcess } from "./node-process";
import { NODE_VERSION } from "./node-version";
import { findTestFiles } from "./test-files";
import { TransformCache } from "./transform-cache";
import { DYNAMIC_IMPORT, functionWithImport, renameImports } from "./transform";

export interface NodeHostHooks {
  /** Make process, Buffer, timers … real globals (the worker: libraries look there). Off in tests run in-process. */
  installGlobals: boolean;
  /** Calls back for promise rejections nobody handled. */
  onUnhandledRejection(listener: (reason: unknown) => void): void;
  /** Calls back for errors thrown where the runtime did not catch them (callbacks of the worker's own APIs). */
  onUncaughtException?(listener: (error: unknown) => void): void;
  /**
   * Starts a thread of the program (worker_threads' Worker): this runtime again, in a worker of its
   * own in the browser, another instance in-process in tests. Without it, new Worker throws one line.
   */
  startThread?: () => ThreadHandle;
}

const EXEC_PATH = "/usr/local/bin/node";
const IGNORED_FLAG = /^--(?:experimental-[\w-]+|no-warnings|no-deprecation|no-experimental-[\w-]+|enable-source-maps|trace-[\w-]+|max-old-space-size=\d+|stack-trace-limit=\d+|strip-types|disable-warning=.*)$/;

const USAGE = `Usage: node [options] [ script.js ] [arguments]
       node --test [files...]

Options:
  -e, --eval script       evaluate script
  -p, --print script      evaluate script and print result
  --test                  run tests (node:test) in the given files, or in the test files found
  --test-reporter=NAME    the test report's format: spec (the default) or tap
  -v, --version           print Node.js version
  -h, --help              print this help

The browser runtime runs JavaScript and TypeScript (.js .mjs .cjs .ts .mts .cts) with Node's module
system and built-ins; http servers listen on localhost:PORT (curl and the Preview reach them);
child_process and worker_threads run on the same host; raw net sockets and native addons
need the WebContainer runtime.
`;

type Mode =
  | { kind: "version" | "help" | "repl" }
  | { kind: "eval"; code: string; print: boolean; args: string[] }
  | { kind: "file"; file: string; args: string[]; reporter: ReporterName }
  | { kind: "test"; files: string[]; reporter: ReporterName }
  | { kind: "bad"; message: string; code: number };

/** --test-reporter=NAME or --test-reporter NAME at args[i]: how many arguments it takes, and the reporter (or why not). */
function testReporter(args: string[], i: number): { taken: number; name?: ReporterName; bad?: Mode } | undefined {
  const arg = args[i]!;
  if (arg !== "--test-reporter" && !arg.startsWith("--test-reporter=")) return undefined;
  const name = arg === "--test-reporter" ? args[i + 1] : arg.slice("--test-reporter=".length);
  const taken = arg === "--test-reporter" ? 2 : 1;
  if (name === undefined) return { taken, bad: { kind: "bad", message: `${EXEC_PATH}: --test-reporter requires an argument\n`, code: 9 } };
  // Node's other reporters (dot, junit, lcov, a module) would print a different report; saying so beats printing spec under their name.
  if (!(REPORTERS as readonly string[]).includes(name)) return { taken, bad: { kind: "bad", message: `node: the test reporter '${name}' is not available in the browser runtime (spec and tap are)\n`, code: 9 } };
  return { taken, name: name as ReporterName };
}

export function parseArgs(args: string[]): Mode {
  let reporter: ReporterName = "spec";
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const option = testReporter(args, i);
    if (option) {
      if (option.bad) return option.bad;
      reporter = option.name!;
      i += option.taken - 1;
      continue;
    }
    if (arg === "--") return args[i + 1] ? { kind: "file", file: args[i + 1]!, args: args.slice(i + 2), reporter } : { kind: "repl" };
    if (arg === "-v" || arg === "--version") return { kind: "version" };
    if (arg === "-h" || arg === "--help") return { kind: "help" };
    if (arg === "-e" || arg === "--eval" || arg === "-p" || arg === "--print" || arg === "-pe") {
      const code = args[i + 1];
      if (code === undefined) return { kind: "bad", message: `node: ${arg} requires an argument\n`, code: 9 };
      // `node -e CODE -- ARGS`: Node leaves the "--" out of process.argv.
      const rest = args.slice(i + 2);
      return { kind: "eval", code, print: arg !== "-e" && arg !== "--eval", args: rest[0] === "--" ? rest.slice(1) : rest };
    }
    if (arg.startsWith("--eval=") || arg.startsWith("--print=")) {
      return { kind: "eval", code: arg.slice(arg.indexOf("=") + 1), print: arg.startsWith("--print="), args: args.slice(i + 1) };
    }
    if (arg === "--test") {
      const files: string[] = [];
      for (let j = i + 1; j < args.length; j++) {
        const later = testReporter(args, j);
        if (later?.bad) return later.bad;
        if (later) {
          reporter = later.name!;
          j += later.taken - 1;
        } else if (!args[j]!.startsWith("-")) files.push(args[j]!);
      }
      return { kind: "test", files, reporter };
    }
    if (IGNORED_FLAG.test(arg)) continue;
    if (arg.startsWith("-")) return { kind: "bad", message: `${EXEC_PATH}: bad option: ${arg}\n`, code: 9 };
    return { kind: "file", file: arg, args: args.slice(i + 1), reporter };
  }
  return { kind: "repl" };
}

export async function runNode(context: ProgramContext, hooks: NodeHostHooks): Promise<void> {
  const { request, fs } = context;
  const mode = parseArgs(request.args);
  const out = (text: string) => context.write("stdout", text);
  const err = (text: string) => context.write("stderr", text);
  switch (mode.kind) {
    case "version":
      out(`${NODE_VERSION}\n`);
      return context.exit(0);
    case "help":
      out(USAGE);
      return context.exit(0);
    case "bad":
      err(mode.message);
      return context.exit(mode.code);
    case "repl":
      if (request.stdin === null) {
        err("node: the interactive REPL is not available in the browser runtime. Run a file (node app.js), or code with node -e \"…\" (-p prints the result).\n");
        return context.exit(1);
      }
  }

  let exited = false;
  let beforeExitGeneration = -1;
  const transforms = new TransformCache(request.compiled);
  const loop: EventLoop = new EventLoop(
    () => {
      if (exited) return;
      if (process.listenerCount("beforeExit") > 0 && beforeExitGeneration !== loop.generation) {
        beforeExitGeneration = loop.generation;
        loop.guard(() => process.emit("beforeExit", process.exitCode ?? 0));
        loop.checkIdle();
        return;
      }
      loop.guard(() => process.exit());
    },
    (error) => uncaught(error),
  );
  const process = createProcess({
    argv: [EXEC_PATH],
    env: request.env,
    cwd: request.cwd,
    stdin: request.stdin,
    readTerminal: request.terminal ? () => context.readTerminal() : undefined,
    loop,
    write: context.write,
    end: (code) => {
      exited = true;
      const compiled = transforms.takeAdded();
      if (compiled.length > 0) context.sendCompiled(compiled);
      context.exit(code);
    },
    isDirectory: (path) => fs.stat(path)?.kind === "dir",
    resolve: resolvePath,
  });
  // A program that handles SIGINT/SIGTERM is sent them (Ctrl-C; Stop or a timeout) and given a
  // grace period to end by itself (sandbox-host.ts SIGNAL_GRACE_MS), as Node would run the handler.
  const handledSignals = (): ProgramSignal[] => PROGRAM_SIGNALS.filter((name) => process.listenerCount(name) > 0);
  let reportedSignals = "";
  const reportSignals = () =>
    queueMicrotask(() => {
      const names = handledSignals();
      if (names.join() === reportedSignals) return;
      reportedSignals = names.join();
      context.handlesSignals(names);
    });
  process.on("newListener", (event: unknown) => {
    if ((PROGRAM_SIGNALS as readonly unknown[]).includes(event)) reportSignals();
  });
  process.on("removeListener", (event: unknown) => {
    if ((PROGRAM_SIGNALS as readonly unknown[]).includes(event)) reportSignals();
  });
  context.onSignal((name) => {
    if (exited) return;
    loop.guard(() => process.emit(name, name));
    loop.checkIdle();
  });
  if (context.ipc) connectIpc(process, context.ipc, loop);
  const console = createConsole(process);
  const timers = nodeTimers(loop);
  let tests: TestModule | undefined;
  const testModule = () =>
    (tests ??= createTestModule(
      (text) => process.stdout.write(text),
      builtins.get("assert"),
      () => process.cwd(),
      (stack) => programStack(stack, sources),
      mode.kind === "file" || mode.kind === "test" ? mode.reporter : "spec",
    ));
  const builtins = createBuiltins({
    fs,
    loop,
    cwd: () => process.cwd(),
    resolve: resolvePath,
    process,
    console,
    timers,
    tests: testModule,
    moduleModule: () => moduleModule(loader, builtins.names()),
    servers: context.servers,
    spawnChild: (request) => context.spawn(request),
    spawnChildSync: (request) => context.spawnSync(request),
    startThread: hooks.startThread,
    thread: request.thread && context.thread ? { start: request.thread, link: context.thread } : undefined,
    execPath: EXEC_PATH,
  });
  // Node's MessageChannel and MessagePort are worker_threads' (ref/unref, 'message' events), not the
  // platform's: emnapi (napi-rs wasm builds such as Rolldown's) keeps a program alive while its async
  // work runs by ref() on such a port, and Vite's CLI ended (exit 0, no output) before its build.
  const ports = builtins.get("worker_threads") as { MessageChannel: unknown; MessagePort: unknown };
  const globals: Record<string, unknown> = { process, Buffer, global: globalThis, console, ...timers, MessageChannel: ports.MessageChannel, MessagePort: ports.MessagePort };
  if (hooks.installGlobals) Object.assign(globalThis, globals);
  const loader = new ModuleLoader({
    fs,
    isBuiltin: (name) => builtins.has(name),
    builtin: (name) => {
      const value = builtins.get(name);
      if (value === undefined) throw Object.assign(new Error(`No such built-in module: node:${name}`), { code: "ERR_UNKNOWN_BUILTIN_MODULE" });
      return value;
    },
    globals,
    afterScript: () => loop.runTicks(),
    transform: (source, filename, format) => transforms.transform(source, filename, format),
  });
  const evalSource: { code?: string } = {};
  const sources = {
    source: (file: string) => (file === "[eval]" || file === "[stdin]" ? evalSource.code : loader.sources.get(file)),
    firstLineOffset: (file: string) => loader.firstLineOffsets.get(file) ?? 0,
  };

  function uncaught(error: unknown): void {
    if (error instanceof ExitSignal || exited) return;
    if (error instanceof RangeError && /allocation failed|out of memory/i.test(error.message)) {
      exited = true;
      loop.stop();
      return context.outOfMemory();
    }
    if (process.listenerCount("uncaughtException") > 0) {
      try {
        process.emit("uncaughtException", error, "uncaughtException");
        return;
      } catch (again) {
        error = again;
      }
    }
    if (context.thread) {
      // A thread does not print its uncaught error: its Worker emits it as 'error' in the program that started it.
      context.thread.error(cloneable(error));
    } else err(formatUncaught(error, sources));
    try {
      process.exitCode = 1;
      process.exit(1);
    } catch {
      // ExitSignal
    }
  }
  hooks.onUncaughtException?.((error) => uncaught(error));
  hooks.onUnhandledRejection((reason) => {
    if (exited) return;
    if (reason instanceof ExitSignal) return;
    if (process.listenerCount("unhandledRejection") > 0) return void loop.guard(() => process.emit("unhandledRejection", reason));
    uncaught(unhandledRejectionError(reason));
  });

  loop.ref();
  try {
    if (mode.kind === "eval" || mode.kind === "repl") {
      const code = mode.kind === "eval" ? mode.code : Buffer.from(request.stdin ?? "").toString();
      const name = mode.kind === "eval" ? "[eval]" : "[stdin]";
      evalSource.code = code;
      process.argv.push(...(mode.kind === "eval" ? mode.args : []));
      const print = mode.kind === "eval" && mode.print;
      // As Node: the options before the program's arguments (util.parseArgs reads them to know where those start).
      if (mode.kind === "eval") process.execArgv.push(print ? "-p" : "-e", code);
      const result = evaluateScript(loader, code, name, process.cwd(), globals, print);
      if (print) console.log(result);
      loop.runTicks();
    } else if (mode.kind === "file") {
      const file = resolvePath(process.cwd(), mode.file);
      process.argv.push(file, ...mode.args);
      if (fs.stat(file)?.kind !== "file") {
        const found = safeResolve(loader, file);
        if (!found) {
          err(missingEntry(file));
          process.exitCode = 1;
          return process.exit(1);
        }
      }
      await loader.runMain(safeResolve(loader, file) ?? file);
      if (tests?.hasTests()) {
        await tests.runDeclared();
        if (!tests.report()) process.exitCode = 1;
      }
    } else if (mode.kind === "test") {
      const files = findTestFiles(fs, process.cwd(), mode.files);
      if (files.length === 0 && mode.files.length > 0) {
        err(`Could not find '${mode.files.map((file) => resolvePath(process.cwd(), file)).join("', '")}'\n`);
        return process.exit(1);
      }
      process.argv.push("--test");
      const runner = testModule();
      for (const file of files) {
        const start = performance.now();
        try {
          await loader.runMain(file);
        } catch (error) {
          if (error instanceof ExitSignal) throw error;
          err(formatUncaught(error, sources));
          runner.fileFailed(file, performance.now() - start);
          continue;
        }
        await runner.runDeclared();
      }
      if (!runner.report()) process.exitCode = 1;
    }
  } catch (error) {
    uncaught(error);
  } finally {
    loop.unref();
  }
}

/**
 * A forked child's end of its IPC channel (child_process.fork): process.send, process.connected,
 * process.disconnect(), 'message' and 'disconnect'. As in Node, the channel keeps the program
 * running while it has 'message' or 'disconnect' listeners, until either end disconnects.
 */
function connectIpc(process: ReturnType<typeof createProcess>, ipc: IpcLink, loop: EventLoop): void {
  const target = process as unknown as Record<string, unknown> & { emit(name: string, ...args: unknown[]): boolean; listenerCount(name: string): number; on(name: string, listener: (...args: unknown[]) => void): unknown };
  let connected = true;
  let refs = 0;
  let wantRef = true;
  const listening = () => target.listenerCount("message") + target.listenerCount("disconnect");
  const update = () => {
    const want = connected && wantRef && listening() > 0 ? 1 : 0;
    if (want === refs) return;
    refs = want;
    if (want) loop.ref();
    else loop.unref();
  };
  const closed = () => {
    if (!connected) return;
    connected = false;
    target.connected = false;
    loop.guard(() => target.emit("disconnect"));
    update();
  };
  target.connected = true;
  target.channel = {
    ref: () => {
      wantRef = true;
      update();
    },
    unref: () => {
      wantRef = false;
      update();
    },
  };
  target.send = (message: unknown, ...rest: unknown[]) => {
    const callback = rest.find((item): item is (error: Error | null) => void => typeof item === "function");
    if (!connected) {
      const error = Object.assign(new Error("Channel closed"), { code: "ERR_IPC_CHANNEL_CLOSED" });
      if (callback) realSetTimeout(() => loop.guard(() => callback(error)), 0);
      else realSetTimeout(() => loop.guard(() => target.emit("error", error)), 0);
      return false;
    }
    ipc.send(ipcCopy(message, "json"));
    if (callback) realSetTimeout(() => loop.guard(() => callback(null)), 0);
    return true;
  };
  target.disconnect = () => {
    if (!connected) return;
    ipc.disconnect();
    realSetTimeout(closed, 0);
  };
  ipc.onMessage((data) => loop.guard(() => target.emit("message", data)));
  ipc.onDisconnect(closed);
  target.on("newListener", () => queueMicrotask(update));
  target.on("removeListener", () => queueMicrotask(update));
}

/** An error as a thread can post it: itself when it clones, else an Error with its message. */
function cloneable(error: unknown): unknown {
  try {
    structuredClone(error);
    return error;
  } catch {
    return error instanceof Error ? Object.assign(new Error(error.message), { stack: error.stack }) : new Error(String(error));
  }
}

function safeResolve(loader: ModuleLoader, file: string): string | undefined {
  try {
    return loader.resolver.resolve(file, "/", "require");
  } catch {
    return undefined;
  }
}

function missingEntry(file: string): string {
  return `node:internal/modules/cjs/loader:1228\n  throw err;\n  ^\n\nError: Cannot find module '${file}'\n    at Module._resolveFilename (node:internal/modules/cjs/loader:1225:15) {\n  code: 'MODULE_NOT_FOUND',\n  requireStack: []\n}\n\nNode.js ${NODE_VERSION}\n`;
}

/**
 * -e / piped stdin run like a CommonJS module at the working folder (a wrapper function, so the
 * engine optimises its code as it does a file's); -p needs the value of the last statement, which
 * only a direct eval gives.
 */
function evaluateScript(loader: ModuleLoader, code: string, name: string, cwd: string, globals: Record<string, unknown>, print: boolean): unknown {
  const module = new NodeModule(name, `${cwd}/${name}`, null);
  module.require = loader.makeRequire(module);
  // import() resolves from the working folder, as Node's does for -e (the loader's, like a module's).
  const dynamicImport = (id: unknown) => loader.importFrom(String(id), module.filename);
  code = renameImports(code, "commonjs");
  // Globals bound by an outer function, so the script may declare its own `const process` (as module-loader.ts does).
  const outer = `(function (${Object.keys(globals).join(", ")}) { return function (exports, require, module, __filename, __dirname, ${DYNAMIC_IMPORT}, Function) {`;
  const bind = (wrapper: string) => ((0, eval)(wrapper) as (...values: unknown[]) => (...values: unknown[]) => unknown)(...Object.values(globals));
  const args = [module.exports, module.require, module, name, ".", dynamicImport, functionWithImport(dynamicImport)];
  if (!print) {
    loader.firstLineOffsets.set(name, outer.length);
    return bind(`${outer}${code}\n} })\n//# sourceURL=${name}`).apply(globalThis, args);
  }
  return bind(`${outer} return eval(arguments[arguments.length - 1]); } })`).apply(globalThis, [...args, `${code}\n//# sourceURL=${name}`]);
}

function moduleModule(loader: ModuleLoader, builtinModules: string[]) {
  const createRequire = (from: string | URL) => {
    const filename = typeof from === "string" ? from.replace(/^file:\/\//, "") : decodeURIComponent(from.pathname);
    const module = new NodeModule(filename, filename, null);
    return loader.makeRequire(module);
  };
  return {
    createRequire,
    builtinModules,
    isBuiltin: (name: string) => loader.isBuiltinSpecifier(name),
    Module: NodeModule,
    _cache: loader.cache,
    _resolveFilename: (request: string, parent: { filename: string }) => loader.resolver.resolve(request, parent.filename, "require"),
    wrap: (script: string) => `(function (exports, require, module, __filename, __dirname) { ${script}\n});`,
    register: () => undefined,
    syncBuiltinESMExports: () => undefined,
  };
}
