// An in-memory stand-in for @webcontainer/api's WebContainer (the real one loads from StackBlitz's
// servers and cannot boot here). It copies the real API (1.6.4) where adapter bugs hide:
// - watch events arrive asynchronously, in order, and can lag (`watchLagMs`);
// - `mount` goes through the same JSON conversion as the real one (a `__proto__` entry is lost);
// - `boot()` refuses a second instance until the first is torn down; teardown twice throws;
// - processes have a terminal: they print escape codes and can prompt, reading typed input until
//   a line or end-of-input (Ctrl-D);
// - `readdir` reports symlinks as neither file nor folder (lstat), `readFile`/`readdir` follow them;
// - `on()` subscribes asynchronously (the real one registers over postMessage): an event fired in
//   the same task as the call is missed; unsubscribing takes effect at once;
// - output arrives as bytes cut at arbitrary places (`outputChunkBytes`), decoded with one streaming
//   decoder per process, as the build's patched API does (scripts/webcontainer-output-decoding.mjs);
// - `configureAPIKey` after any boot call throws (fakeWebContainerApi below).
// Used by the unit tests and, through the e2e build's alias of "@webcontainer/api", by the
// browser tests.
import type { MountTree, ProcessLike, WebContainerLike } from "../../src/runtime/webcontainer";

type Entry = Uint8Array | "dir" | { link: string };
type WatchListener = (event: "rename" | "change", filename: string) => void;

/** End of input on a terminal (Ctrl-D). */
const EOT = "\x04";

export class FakeProcess implements ProcessLike {
  readonly exit: Promise<number>;
  readonly input: WritableStream<string>;
  readonly output: ReadableStream<string>;
  readonly typed: string[] = [];
  killed = false;
  exited = false;
  /** A process that ignores kill() (a stuck one): it runs on until `end()`. */
  survivesKill = false;
  /** Writes to the input and resizes that came after the process exited. */
  readonly afterExit: string[] = [];
  size: { cols: number; rows: number } | undefined;
  /** Called with each chunk written to the process's input (an interactive fake shell reacts to it). */
  onInput: ((chunk: string) => void) | undefined;
  private finish!: (code: number) => void;
  private out!: ReadableStreamDefaultController<string>;
  private inputBuffer = "";
  private readers: Array<() => void> = [];

  private readonly decoder = new TextDecoder();

  /** `chunkBytes`: output is cut into pieces of at most this many bytes (0: as printed). */
  constructor(private readonly chunkBytes = 0) {
    this.exit = new Promise((resolve) => (this.finish = resolve));
    this.output = new ReadableStream({ start: (controller) => void (this.out = controller) });
    this.input = new WritableStream({
      write: (chunk) => {
        if (this.exited) this.afterExit.push(`write ${JSON.stringify(chunk)}`);
        this.typed.push(chunk);
        this.inputBuffer += chunk;
        for (const wake of this.readers.splice(0)) wake();
        this.onInput?.(chunk);
      },
    });
  }

  print(text: string): void {
    if (this.exited) return;
    if (this.chunkBytes <= 0) {
      this.out.enqueue(text);
      return;
    }
    const bytes = new TextEncoder().encode(text);
    for (let i = 0; i < bytes.length; i += this.chunkBytes) {
      const piece = this.decoder.decode(bytes.subarray(i, i + this.chunkBytes), { stream: true });
      if (piece !== "") this.out.enqueue(piece);
    }
  }

  /** Reads one typed line (without its end), or null at end of input (Ctrl-D on an empty line). */
  async readLine(): Promise<string | null> {
    for (;;) {
      const eot = this.inputBuffer.indexOf(EOT);
      const newline = this.inputBuffer.search(/[\r\n]/);
      if (newline >= 0 && (eot < 0 || newline < eot)) {
        const line = this.inputBuffer.slice(0, newline);
        this.inputBuffer = this.inputBuffer.slice(newline + 1);
        return line;
      }
      if (eot >= 0) {
        this.inputBuffer = this.inputBuffer.slice(eot + 1);
        return null;
      }
      if (this.exited) return null;
      await new Promise<void>((resolve) => this.readers.push(resolve));
    }
  }

  /** Prints a question the way prompt libraries do (coloured, no newline) and waits for the answer. */
  async prompt(question: string): Promise<string | null> {
    this.print(`\x1b[32m?\x1b[39m \x1b[1m${question}\x1b[22m \x1b[90m›\x1b[39m `);
    return this.readLine();
  }

  end(code: number): void {
    if (this.exited) return;
    this.exited = true;
    try {
      this.out.close();
    } catch {
      // already closed
    }
    for (const wake of this.readers.splice(0)) wake();
    this.finish(code);
  }

  kill(): void {
    this.killed = true;
    if (!this.survivesKill) this.end(143);
  }

  resize(size: { cols: number; rows: number }): void {
    if (this.exited) this.afterExit.push(`resize ${size.cols}x${size.rows}`);
    else this.size = size;
  }
}

export interface SpawnRecord {
  command: string;
  args: string[];
  proc: FakeProcess;
  cwd?: string;
  terminal?: { cols: number; rows: number };
  env?: Record<string, string | number | boolean>;
}

export type SpawnHandler = (proc: FakeProcess, fake: FakeWebContainer, args: string[], cwd?: string, record?: SpawnRecord) => void;

/** jsh's interactive prompt, coloured like the real one. */
export const FAKE_JSH_PROMPT = "\x1b[1;34m~/workspace\x1b[0m \x1b[35m❯\x1b[0m ";

/** An in-memory WebContainer: a file system that reports changes to watchers, scripted processes. */
export class FakeWebContainer implements WebContainerLike {
  private static booted: FakeWebContainer | undefined;
  private static booting: Promise<unknown> | undefined;
  /** How long `FakeWebContainer.boot()` takes. */
  static bootDelayMs = 0;

  /** Boots like `WebContainer.boot`: one instance per page; a second waits for the first, then fails while it is up. */
  static async boot(_options?: { coep?: string; workdirName?: string }): Promise<FakeWebContainer> {
    while (FakeWebContainer.booting) await FakeWebContainer.booting.catch(() => undefined);
    if (FakeWebContainer.booted && !FakeWebContainer.booted.tornDown) throw new Error("Only a single WebContainer instance can be booted");
    const booting = new Promise<FakeWebContainer>((resolve) => setTimeout(() => resolve(new FakeWebContainer()), FakeWebContainer.bootDelayMs));
    FakeWebContainer.booting = booting;
    try {
      const instance = await booting;
      FakeWebContainer.booted = instance;
      return instance;
    } finally {
      FakeWebContainer.booting = undefined;
    }
  }

  readonly files = new Map<string, Entry>();
  readonly spawned: SpawnRecord[] = [];
  /** Writes, removals and renames made through `fs` (the adapter), in order. */
  readonly apiWrites: string[] = [];
  readonly listeners = new Map<string, Array<(...args: never[]) => void>>();
  private watchers: WatchListener[] = [];
  private watchQueue: Array<{ event: "rename" | "change"; path: string; due: number }> = [];
  private watchTimer: ReturnType<typeof setTimeout> | undefined;
  /** How long after a change its watch event is delivered (events stay in order). */
  watchLagMs = 1;
  /** How long a mount takes (a big workspace takes a while). */
  mountDelayMs = 0;
  /** Output pieces of at most this many bytes (0: each print whole). Odd by default, so escape sequences and multi-byte characters get cut. */
  outputChunkBytes = 61;
  tornDown = false;
  mounted: MountTree | undefined;
  /** Decides what a spawned process does; by default an interactive jsh shows its prompt and waits, anything else exits 0. */
  onSpawn: SpawnHandler = (proc, _fake, args, _cwd, record) => {
    if (record?.command === "jsh" && args.length === 0) proc.print(FAKE_JSH_PROMPT);
    else proc.end(0);
  };

  readonly fs = {
    readFile: async (path: string) => {
      const target = this.resolve(clean(path));
      const entry = this.files.get(target);
      if (entry === undefined) throw new Error(`ENOENT: no such file or directory, open '${path}'`);
      if (entry === "dir") throw new Error(`EISDIR: illegal operation on a directory, read`);
      if (!(entry instanceof Uint8Array)) throw new Error(`ELOOP: too many symbolic links encountered, open '${path}'`);
      return entry.slice();
    },
    writeFile: async (path: string, data: string | Uint8Array) => {
      this.apiWrites.push(clean(path));
      this.write(clean(path), data);
    },
    mkdir: async (path: string) => {
      this.mkdirp(clean(path));
      return clean(path);
    },
    rm: async (path: string) => {
      this.apiWrites.push(`rm ${clean(path)}`);
      this.remove(clean(path));
    },
    rename: async (from: string, to: string) => {
      const source = clean(from);
      if (!this.files.has(source)) throw new Error(`ENOENT: no such file or directory, rename '${from}' -> '${to}'`);
      this.apiWrites.push(`rename ${source} ${clean(to)}`);
      this.move(source, clean(to));
    },
    readdir: async (path: string) => {
      const dir = this.resolve(clean(path));
      if (dir !== "" && this.files.get(dir) !== "dir") throw new Error(`ENOENT: no such directory '${path}'`);
      const prefix = dir === "" ? "" : dir + "/";
      return [...this.files.entries()]
        .filter(([p]) => p.startsWith(prefix) && !p.slice(prefix.length).includes("/"))
        .map(([p, e]) => ({ name: p.slice(prefix.length), isFile: () => e instanceof Uint8Array, isDirectory: () => e === "dir" }));
    },
    watch: (_path: string, _options: { recursive?: boolean }, listener: WatchListener) => {
      this.watchers.push(listener);
      return { close: () => void (this.watchers = this.watchers.filter((l) => l !== listener)) };
    },
  };

  async mount(tree: MountTree): Promise<void> {
    // A round trip to the container's frame, on the same channel as on(): subscriptions made
    // before the mount are in place when it resolves.
    await new Promise((resolve) => setTimeout(resolve, this.mountDelayMs));
    this.mounted = tree;
    // The real mount sends JSON.stringify(toInternalFileSystemTree(tree)); its folders are plain
    // objects, so an entry named "__proto__" becomes the prototype and is not sent.
    const internal = (node: MountTree): Record<string, unknown> => {
      const d: Record<string, unknown> = {};
      for (const name of Object.keys(node)) {
        const child = node[name]!;
        d[name] = "directory" in child ? { d: internal(child.directory) } : { f: { c: toBytes(child.file.contents) } };
      }
      return d;
    };
    const sent = JSON.parse(JSON.stringify(internal(tree), (_key, value: unknown) => (value instanceof Uint8Array ? Array.from(value) : value))) as Record<
      string,
      { d?: Record<string, unknown>; f?: { c: number[] } }
    >;
    const walk = (node: Record<string, { d?: Record<string, unknown>; f?: { c: number[] } }>, prefix: string) => {
      for (const [name, child] of Object.entries(node)) {
        const path = prefix + name;
        if (child.d) {
          this.files.set(path, "dir");
          walk(child.d as typeof node, path + "/");
        } else this.files.set(path, new Uint8Array(child.f!.c));
      }
    };
    walk(sent, "");
  }

  async spawn(command: string, args: string[], options?: { cwd?: string; env?: Record<string, string | number | boolean>; terminal?: { cols: number; rows: number } }) {
    const proc = new FakeProcess(this.outputChunkBytes);
    const record: SpawnRecord = { command, args, proc, cwd: options?.cwd, terminal: options?.terminal, env: options?.env };
    this.spawned.push(record);
    queueMicrotask(() => this.onSpawn(proc, this, args, options?.cwd, record));
    return proc;
  }

  on(event: string, listener: (...args: never[]) => void): () => void {
    // Registered a task later, like the real API's round trip to its frame; stopped at once.
    let stopped = false;
    const wrapped = ((...args: never[]) => {
      if (!stopped) listener(...args);
    }) as (...args: never[]) => void;
    setTimeout(() => {
      if (stopped) return;
      const list = this.listeners.get(event) ?? [];
      list.push(wrapped);
      this.listeners.set(event, list);
    }, 0);
    return () => {
      stopped = true;
      this.listeners.set(event, (this.listeners.get(event) ?? []).filter((l) => l !== wrapped));
    };
  }

  emit(event: string, ...args: unknown[]): void {
    for (const listener of this.listeners.get(event) ?? []) (listener as (...a: unknown[]) => void)(...args);
  }

  teardown(): void {
    if (this.tornDown) throw new Error("WebContainer already torn down");
    this.tornDown = true;
    if (FakeWebContainer.booted === this) FakeWebContainer.booted = undefined;
  }

  // "Inside the container" operations (what jsh, npm or a dev server would do); each is reported
  // to watchers a moment later, like the real one.
  write(path: string, data: string | Uint8Array): void {
    this.mkdirp(path.split("/").slice(0, -1).join("/"));
    const existed = this.files.has(path);
    this.files.set(path, toBytes(data));
    this.notify(existed ? "change" : "rename", path);
  }

  mkdirp(path: string): void {
    const parts = path.split("/").filter(Boolean);
    for (let i = 1; i <= parts.length; i++) {
      const dir = parts.slice(0, i).join("/");
      if (!this.files.has(dir)) {
        this.files.set(dir, "dir");
        this.notify("rename", dir);
      }
    }
  }

  /** A symbolic link at `path` pointing to `target` (relative to the link's folder, or to the root with a leading "/"). */
  symlink(path: string, target: string): void {
    this.mkdirp(path.split("/").slice(0, -1).join("/"));
    this.files.set(path, { link: target });
    this.notify("rename", path);
  }

  remove(path: string): void {
    for (const key of [...this.files.keys()]) if (key === path || key.startsWith(path + "/")) this.files.delete(key);
    this.notify("rename", path);
  }

  move(from: string, to: string): void {
    for (const key of [...this.files.keys()]) {
      if (key === from || key.startsWith(from + "/")) {
        this.files.set(to + key.slice(from.length), this.files.get(key)!);
        this.files.delete(key);
      }
    }
    this.notify("rename", from);
    this.notify("rename", to);
  }

  /** Resolves symbolic links along a path (at most 40, like Linux). */
  private resolve(path: string): string {
    let parts = path.split("/").filter(Boolean);
    for (let hops = 0, i = 0; i < parts.length; i++) {
      const here = parts.slice(0, i + 1).join("/");
      const entry = this.files.get(here);
      if (entry === undefined || entry === "dir" || entry instanceof Uint8Array) continue;
      if (++hops > 40) return "\0loop";
      const base = entry.link.startsWith("/") ? [] : parts.slice(0, i);
      const joined: string[] = [];
      for (const part of [...base, ...entry.link.split("/"), ...parts.slice(i + 1)]) {
        if (part === "" || part === ".") continue;
        if (part === "..") joined.pop();
        else joined.push(part);
      }
      parts = joined;
      i = -1;
    }
    return parts.join("/");
  }

  private notify(event: "rename" | "change", path: string): void {
    this.watchQueue.push({ event, path, due: Date.now() + this.watchLagMs });
    this.scheduleWatch();
  }

  private scheduleWatch(): void {
    if (this.watchTimer !== undefined || this.watchQueue.length === 0) return;
    this.watchTimer = setTimeout(() => {
      this.watchTimer = undefined;
      const now = Date.now();
      while (this.watchQueue.length > 0 && this.watchQueue[0]!.due <= now) {
        const { event, path } = this.watchQueue.shift()!;
        for (const watcher of this.watchers) watcher(event, path);
      }
      this.scheduleWatch();
    }, Math.max(1, this.watchQueue[0]!.due - Date.now()));
  }

  text(path: string): string | undefined {
    const entry = this.files.get(path);
    return entry instanceof Uint8Array ? new TextDecoder().decode(entry) : undefined;
  }
}

/**
 * A fresh "@webcontainer/api" module (one per page): like the real one, configureAPIKey throws once
 * WebContainer.boot has been called, even a boot that failed ("configureAPIKey should always be
 * called before WebContainer.boot"). `failBoots` makes the next boots reject.
 */
export function fakeWebContainerApi(options: { failBoots?: number; bootError?: string } = {}) {
  let bootCalled = false;
  let failures = options.failBoots ?? 0;
  const api = {
    keys: [] as string[],
    boots: 0,
    configureAPIKey(key: string): void {
      if (bootCalled) throw new Error("`configureAPIKey` should always be called before `WebContainer.boot`");
      api.keys.push(key);
    },
    WebContainer: {
      async boot(_options: { coep: string; workdirName: string }): Promise<FakeWebContainer> {
        bootCalled = true;
        api.boots++;
        if (failures > 0) {
          failures--;
          throw new Error(options.bootError ?? "Failed to boot WebContainer");
        }
        return new FakeWebContainer();
      },
    },
  };
  return api;
}

function clean(path: string): string {
  if (path === "." || path === "./") return "";
  return path.replace(/^\.?\/+/, "").replace(/\/+$/, "");
}

function toBytes(data: string | Uint8Array): Uint8Array {
  return typeof data === "string" ? new TextEncoder().encode(data) : data.slice();
}
