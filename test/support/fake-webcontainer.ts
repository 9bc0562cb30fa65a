// An in-memory stand-in for @webcontainer/api's WebContainer (the real one loads from StackBlitz's
// servers and cannot boot here): a file system that reports changes to watchers a moment later,
// like the real one, and scripted processes. Used by the unit tests and, through the e2e build's
// alias of "@webcontainer/api" (test/support/fake-webcontainer-api.ts), by the browser tests.
import type { MountTree, ProcessLike, WebContainerLike } from "../../src/runtime/webcontainer";

type Entry = Uint8Array | "dir";
type WatchListener = (event: "rename" | "change", filename: string) => void;

export class FakeProcess implements ProcessLike {
  readonly exit: Promise<number>;
  readonly input: WritableStream<string>;
  readonly output: ReadableStream<string>;
  readonly typed: string[] = [];
  killed = false;
  size: { cols: number; rows: number } | undefined;
  /** Called with each chunk written to the process's input (an interactive fake shell reacts to it). */
  onInput: ((chunk: string) => void) | undefined;
  private finish!: (code: number) => void;
  private out!: ReadableStreamDefaultController<string>;

  constructor() {
    this.exit = new Promise((resolve) => (this.finish = resolve));
    this.output = new ReadableStream({ start: (controller) => void (this.out = controller) });
    this.input = new WritableStream({
      write: (chunk) => {
        this.typed.push(chunk);
        this.onInput?.(chunk);
      },
    });
  }

  print(text: string): void {
    this.out.enqueue(text);
  }

  end(code: number): void {
    try {
      this.out.close();
    } catch {
      // already closed
    }
    this.finish(code);
  }

  kill(): void {
    this.killed = true;
    this.end(143);
  }

  resize(size: { cols: number; rows: number }): void {
    this.size = size;
  }
}

export type SpawnHandler = (proc: FakeProcess, fake: FakeWebContainer, args: string[], cwd?: string) => void;

/** An in-memory WebContainer: a file system that reports changes to watchers, scripted processes. */
export class FakeWebContainer implements WebContainerLike {
  readonly files = new Map<string, Entry>();
  readonly spawned: Array<{ command: string; args: string[]; proc: FakeProcess; cwd?: string; terminal?: unknown }> = [];
  readonly apiWrites: string[] = [];
  readonly listeners = new Map<string, Array<(...args: never[]) => void>>();
  private watchers: WatchListener[] = [];
  tornDown = false;
  mounted: MountTree | undefined;
  onSpawn: SpawnHandler = (proc) => proc.end(0);

  readonly fs = {
    readFile: async (path: string) => {
      const entry = this.files.get(clean(path));
      if (entry === undefined) throw new Error(`ENOENT: no such file or directory, open '${path}'`);
      if (entry === "dir") throw new Error(`EISDIR: illegal operation on a directory, read`);
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
      this.move(clean(from), clean(to));
    },
    readdir: async (path: string) => {
      const dir = clean(path);
      if (dir !== "" && this.files.get(dir) !== "dir") throw new Error(`ENOENT: no such directory '${path}'`);
      const prefix = dir === "" ? "" : dir + "/";
      return [...this.files.entries()]
        .filter(([p]) => p.startsWith(prefix) && !p.slice(prefix.length).includes("/"))
        .map(([p, e]) => ({ name: p.slice(prefix.length), isFile: () => e !== "dir", isDirectory: () => e === "dir" }));
    },
    watch: (_path: string, _options: { recursive?: boolean }, listener: WatchListener) => {
      this.watchers.push(listener);
      return { close: () => void (this.watchers = this.watchers.filter((l) => l !== listener)) };
    },
  };

  async mount(tree: MountTree): Promise<void> {
    this.mounted = tree;
    const walk = (node: MountTree, prefix: string) => {
      for (const [name, child] of Object.entries(node)) {
        const path = prefix + name;
        if ("directory" in child) {
          this.files.set(path, "dir");
          walk(child.directory, path + "/");
        } else this.files.set(path, toBytes(child.file.contents));
      }
    };
    walk(tree, "");
  }

  async spawn(command: string, args: string[], options?: { cwd?: string; terminal?: { cols: number; rows: number } }) {
    const proc = new FakeProcess();
    this.spawned.push({ command, args, proc, cwd: options?.cwd, terminal: options?.terminal });
    queueMicrotask(() => this.onSpawn(proc, this, args, options?.cwd));
    return proc;
  }

  on(event: string, listener: (...args: never[]) => void): () => void {
    const list = this.listeners.get(event) ?? [];
    list.push(listener);
    this.listeners.set(event, list);
    return () => this.listeners.set(event, (this.listeners.get(event) ?? []).filter((l) => l !== listener));
  }

  emit(event: string, ...args: unknown[]): void {
    for (const listener of this.listeners.get(event) ?? []) (listener as (...a: unknown[]) => void)(...args);
  }

  teardown(): void {
    this.tornDown = true;
  }

  // "Inside the container" operations (what jsh, npm or a dev server would do); each is reported
  // to watchers a moment later, like the real one.
  write(path: string, data: string | Uint8Array): void {
    this.mkdirp(path.split("/").slice(0, -1).join("/"));
    this.files.set(path, toBytes(data));
    this.notify("change", path);
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

  private notify(event: "rename" | "change", path: string): void {
    setTimeout(() => {
      for (const watcher of this.watchers) watcher(event, path);
    }, 1);
  }

  text(path: string): string | undefined {
    const entry = this.files.get(path);
    return entry === undefined || entry === "dir" ? undefined : new TextDecoder().decode(entry);
  }
}

function clean(path: string): string {
  if (path === "." || path === "./") return "";
  return path.replace(/^\.?\/+/, "").replace(/\/+$/, "");
}

function toBytes(data: string | Uint8Array): Uint8Array {
  return typeof data === "string" ? new TextEncoder().encode(data) : data.slice();
}

