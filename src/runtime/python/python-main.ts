// Runs one python3 command line in the isolated execution host's worker with Pyodide (CPython
// compiled to WebAssembly). The program's files are the sandbox's synchronous file system, copied
// into Pyodide's in-memory file system before the run and compared after it: what the program
// created, changed or removed flows back to the workspace as the sandbox's file changes.
import type { ProgramContext } from "../sandbox/worker-kit";
import type { FileData } from "../sandbox";
import { FRESH } from "./python-fresh";

/** The part of Pyodide's interface this runner uses. */
export interface PythonRuntime {
  FS: {
    mkdirTree(path: string): void;
    writeFile(path: string, data: Uint8Array | string): void;
    readFile(path: string): Uint8Array;
    readdir(path: string): string[];
    stat(path: string): { mode: number };
    isDir(mode: number): boolean;
    unlink(path: string): void;
    rmdir(path: string): void;
    analyzePath(path: string): { exists: boolean };
    chdir(path: string): void;
  };
  setStdout(options: { write: (buffer: Uint8Array) => number }): void;
  setStderr(options: { write: (buffer: Uint8Array) => number }): void;
  setStdin(options: { stdin: () => Uint8Array | string | null | undefined; isatty?: boolean } | { error: true }): void;
  globals: { get(name: string): unknown };
  runPython(code: string): unknown;
}

export type LoadPython = () => Promise<PythonRuntime>;

const ROOTS = ["/workspace", "/tmp"];

/**
 * Where the kept interpreter writes bytecode (sys.pycache_prefix): outside the roots, so it never
 * flows back to the workspace and outlives the run. Pyodide starts with sys.dont_write_bytecode, so
 * every run compiled every module it imported from source again: pytest's ~100 modules were 1.7 s
 * of each `python3 -m pytest` (in-process, this machine). The bytecode is checked against the
 * source's mtime and size as CPython does, and the files a run leaves as they were keep their mtime
 * (see `copyIn`), so only edited files are compiled again.
 */
export const PYCACHE_PREFIX = "/webcode-pycache";

/** Per interpreter: every file under the roots as the last run left it (the worker sits idle in between, so it is still there). */
const lastFiles = new WeakMap<PythonRuntime, Map<string, Uint8Array>>();

/**
 * The driver: runs FILE, -c CODE or -m MODULE as CPython's main does, returns the exit code, and
 * prints an uncaught exception's traceback without the driver's own frames.
 */
const DRIVER = String.raw`
def __webcode_main(argv, cwd, env, pycache_prefix):
    import os, sys, runpy, traceback, atexit
    __webcode_fresh()
    argv = argv.to_py() if hasattr(argv, "to_py") else argv
    env = env.to_py() if hasattr(env, "to_py") else env
    # Bytecode is written outside the workspace and kept for later runs (PYCACHE_PREFIX), unless
    # PYTHONDONTWRITEBYTECODE or -B says not to, as CPython.
    sys.pycache_prefix = pycache_prefix
    sys.dont_write_bytecode = bool(env.get("PYTHONDONTWRITEBYTECODE"))
    # A program may close the standard streams (json.tool does); a shared interpreter reopens them.
    if sys.stdin.closed:
        sys.stdin = open(0, "r", encoding="utf-8", closefd=False)
    if sys.stdout.closed:
        sys.stdout = open(1, "w", encoding="utf-8", closefd=False, buffering=1)
    if sys.stderr.closed:
        sys.stderr = open(2, "w", encoding="utf-8", closefd=False, buffering=1)
    os.chdir(cwd)
    os.environ.clear()
    os.environ.update(env)
    # What pip installed (the workspace's .venv, see src/runtime/pip) is importable, .pth files included.
    # (No importlib.invalidate_caches(): __webcode_fresh restored the import caches of the start, so
    # the workspace's folders get new finders every run.)
    import site
    site_dir = "/workspace/.venv/lib/python%d.%d/site-packages" % sys.version_info[:2]
    if os.path.isdir(site_dir) and site_dir not in sys.path:
        site.addsitedir(site_dir)
    usage = "usage: python3 [option] ... [-c cmd | -m mod | file | -] [arg] ...\n"
    args = list(argv)
    mode = None
    target = None
    while args:
        a = args.pop(0)
        if a == "-c":
            if not args:
                sys.stderr.write("Argument expected for the -c option\n" + usage)
                return 2
            mode, target = "c", args.pop(0)
            sys.argv = ["-c"] + args
            break
        if a == "-m":
            if not args:
                sys.stderr.write("Argument expected for the -m option\n" + usage)
                return 2
            mode, target = "m", args.pop(0)
            sys.argv = [target] + args
            break
        if a == "-B":
            sys.dont_write_bytecode = True
            continue
        if a in ("-u", "-E", "-s", "-S", "-I", "-q"):
            continue
        if a in ("-V", "--version"):
            print("Python " + sys.version.split()[0])
            return 0
        if a in ("-h", "--help"):
            sys.stdout.write(usage)
            return 0
        if a.startswith("-") and a != "-":
            sys.stderr.write("Unknown option: " + a + "\n" + usage)
            return 2
        mode, target = "file", a
        sys.argv = [a] + args
        break
    if mode is None:
        mode, target = "file", "-"
        sys.argv = [""]
    own = {__webcode_main.__code__.co_filename}
    try:
        if mode == "c":
            sys.path.insert(0, "")
            code = compile(target, "<string>", "exec")
            exec(code, {"__name__": "__main__", "__builtins__": __builtins__})
        elif mode == "m":
            sys.path.insert(0, os.getcwd())
            runpy.run_module(target, run_name="__main__", alter_sys=True)
        elif target == "-":
            source = sys.stdin.read()
            exec(compile(source, "<stdin>", "exec"), {"__name__": "__main__", "__builtins__": __builtins__})
        else:
            path = os.path.abspath(target)
            if not os.path.exists(path):
                sys.stderr.write("python3: can't open file '%s': [Errno 2] No such file or directory\n" % path)
                return 2
            sys.path.insert(0, os.path.dirname(path))
            own.add(runpy.__file__)
            runpy.run_path(path, run_name="__main__")
    except SystemExit as e:
        code = e.code
        if code is None:
            return 0
        if isinstance(code, int):
            return code
        sys.stderr.write(str(code) + "\n")
        return 1
    except BaseException as e:
        tb = e.__traceback__
        while tb is not None and (tb.tb_frame.f_code.co_filename in own or tb.tb_frame.f_code.co_filename.startswith("<frozen runpy")):
            tb = tb.tb_next
        if isinstance(e, SyntaxError) and mode == "file":
            tb = None
        traceback.print_exception(type(e), e, tb)
        return 130 if isinstance(e, KeyboardInterrupt) else 1
    finally:
        # What the program registered with atexit runs as the process ends, once.
        try:
            atexit._run_exitfuncs()
        finally:
            atexit._clear()
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except Exception:
            pass
    return 0
`;

/** Removes the bytecode files of `source` under PYCACHE_PREFIX (`<stem>.cpython-3X.pyc`, `<stem>.cpython-3X-pytest-N.pyc`). */
function forgetBytecode(py: PythonRuntime, source: string): void {
  const slash = source.lastIndexOf("/");
  const dir = `${PYCACHE_PREFIX}${source.slice(0, slash)}`;
  if (!py.FS.analyzePath(dir).exists) return;
  const stem = `${source.slice(slash + 1, -".py".length)}.`;
  for (const name of py.FS.readdir(dir)) if (name.startsWith(stem) && name.endsWith(".pyc")) py.FS.unlink(`${dir}/${name}`);
}

function toBytes(data: FileData): Uint8Array {
  return typeof data === "string" ? new TextEncoder().encode(data) : data;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Writes `buffer` to the program's output, decoding UTF-8 across chunk boundaries. */
function writer(context: ProgramContext, stream: "stdout" | "stderr") {
  const decoder = new TextDecoder();
  return (buffer: Uint8Array) => {
    context.write(stream, decoder.decode(buffer, { stream: true }));
    return buffer.length;
  };
}

/**
 * The terminal for input() and sys.stdin: each read blocks until the user has typed a line (or
 * Ctrl-D: the end of input). A worker that cannot block (no shared memory) sees the end at once.
 */
function terminalReader(context: ProgramContext): () => Uint8Array | null {
  let warned = false;
  return () => {
    const data = context.readTerminalSync();
    if (data !== undefined) return data;
    if (!warned) {
      warned = true;
      context.write("stderr", "python3: this page cannot wait for typed input (it is not cross-origin isolated); standard input is empty. Pipe input instead: echo text | python3 …\n");
    }
    return null;
  };
}

export async function runPython(context: ProgramContext, load: LoadPython): Promise<void> {
  const { request, fs } = context;
  const py = await load();
  // The program's files: every file and folder of the sandbox under the roots. An interpreter that
  // ran a program before (the kept worker; tests share one) starts from the sandbox's files only:
  // what is not there is removed, and a file the last run left with the same bytes is not written
  // again, so it keeps its mtime and its bytecode in PYCACHE_PREFIX stays valid.
  py.FS.chdir("/");
  // Made here: CPython's importlib creates the missing folders of a bytecode path below the first
  // that exists, and "/" splits as "", so the prefix itself would land in the working folder.
  py.FS.mkdirTree(PYCACHE_PREFIX);
  const last = lastFiles.get(py);
  const before = new Map<string, Uint8Array>();
  const wantedDirs = new Set<string>();
  const collect = (dir: string) => {
    wantedDirs.add(dir);
    for (const name of fs.readdir(dir)) {
      const path = `${dir}/${name}`;
      const node = fs.stat(path);
      if (node?.kind === "dir") collect(path);
      else if (node) before.set(path, toBytes(node.data));
    }
  };
  for (const root of ROOTS) if (fs.stat(root)?.kind === "dir") collect(root);
  const unchanged = new Set<string>();
  const prune = (dir: string) => {
    for (const name of py.FS.readdir(dir)) {
      if (name === "." || name === "..") continue;
      const path = `${dir}/${name}`;
      if (py.FS.isDir(py.FS.stat(path).mode)) {
        prune(path);
        if (!wantedDirs.has(path)) py.FS.rmdir(path);
      } else {
        const wanted = before.get(path);
        const kept = last?.get(path);
        if (wanted && kept && sameBytes(kept, wanted)) unchanged.add(path);
        else py.FS.unlink(path);
      }
    }
  };
  for (const root of ROOTS) if (py.FS.analyzePath(root).exists) prune(root);
  for (const dir of wantedDirs) py.FS.mkdirTree(dir);
  for (const [path, bytes] of before) {
    if (unchanged.has(path)) continue;
    py.FS.writeFile(path, bytes);
    // Bytecode is checked by mtime in seconds and size: an edit within the same second that kept
    // the size would pass as unchanged, so a new or edited source's bytecode (CPython's and pytest's
    // rewritten tests) is dropped.
    if (last && path.endsWith(".py")) forgetBytecode(py, path);
  }
  const beforeDirs = new Set<string>();
  const listDirs = (dir: string) => {
    beforeDirs.add(dir);
    for (const name of py.FS.readdir(dir)) if (name !== "." && name !== ".." && py.FS.isDir(py.FS.stat(`${dir}/${name}`).mode)) listDirs(`${dir}/${name}`);
  };
  for (const root of ROOTS) listDirs(root);

  py.setStdout({ write: writer(context, "stdout") });
  py.setStderr({ write: writer(context, "stderr") });
  if (request.terminal) py.setStdin({ stdin: terminalReader(context), isatty: true });
  else {
    const stdin = request.stdin === null ? new Uint8Array() : toBytes(request.stdin);
    let given = false;
    py.setStdin({ stdin: () => (given ? null : ((given = true), stdin)), isatty: false });
  }

  // The driver is defined once per interpreter (it survives runs: python-fresh.ts keeps __main__'s own names).
  if (!py.globals.get("__webcode_main")) py.runPython(FRESH + DRIVER);
  const main = py.globals.get("__webcode_main") as ((argv: string[], cwd: string, env: Record<string, string>, pycachePrefix: string) => number) & { destroy?(): void };
  let code: number;
  // The interpreter serves the next run only when this one ended in Python's own way.
  let reusable = true;
  try {
    code = Number(main(request.args, request.cwd, request.env, PYCACHE_PREFIX)) | 0;
  } catch (error) {
    context.write("stderr", `${error instanceof Error ? error.message : String(error)}\n`);
    code = 1;
    reusable = false;
  }

  // What the program changed flows back, folders first, removals last.
  const after = new Map<string, Uint8Array>();
  const afterDirs = new Set<string>();
  const walk = (dir: string) => {
    afterDirs.add(dir);
    for (const name of py.FS.readdir(dir)) {
      if (name === "." || name === "..") continue;
      const path = `${dir}/${name}`;
      if (py.FS.isDir(py.FS.stat(path).mode)) walk(path);
      else after.set(path, py.FS.readFile(path));
    }
  };
  for (const root of ROOTS) walk(root);
  if (reusable) lastFiles.set(py, after);
  else lastFiles.delete(py);
  for (const dir of afterDirs) if (!beforeDirs.has(dir)) fs.mkdir(dir, true);
  for (const [path, bytes] of after) {
    const old = before.get(path);
    if (!old || !sameBytes(old, bytes)) fs.writeFile(path, bytes);
  }
  for (const path of before.keys()) if (!after.has(path)) fs.remove(path, { fileOnly: true, syscall: "unlink" });
  for (const dir of [...beforeDirs].sort().reverse()) if (!afterDirs.has(dir)) fs.remove(dir, { recursive: true, syscall: "rmdir" });
  context.exit(code, { reusable });
}
