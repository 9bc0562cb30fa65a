// The WebContainer adapter against a fake WebContainer (the real one loads from StackBlitz's
// servers and cannot boot here): mount, watch flow-back (node_modules excluded), push without
// echo, exec with timeout/abort -> kill, server-ready, boot timeout.
import type { WebContainer } from "@webcontainer/api";
import { afterEach, describe, expect, it, vi } from "vitest";
import { BootTimeoutError, WorkspaceFiles, type FileChange } from "../../src/runtime";
import { bootWebContainerRuntime, type MountTree, type ProcessLike, type WebContainerLike } from "../../src/runtime/webcontainer";
import type { WebContainerRuntime } from "../../src/runtime/webcontainer";
import { openStorage } from "../../src/storage";

// The real class must fit the interface the adapter is written against.
const fitsRealApi: (real: WebContainer) => WebContainerLike = (real) => real;
void fitsRealApi;

type Entry = Uint8Array | "dir";
type WatchListener = (event: "rename" | "change", filename: string) => void;

class FakeProcess implements ProcessLike {
  readonly exit: Promise<number>;
  readonly input: WritableStream<string>;
  readonly output: ReadableStream<string>;
  readonly typed: string[] = [];
  killed = false;
  size: { cols: number; rows: number } | undefined;
  private finish!: (code: number) => void;
  private out!: ReadableStreamDefaultController<string>;

  constructor() {
    this.exit = new Promise((resolve) => (this.finish = resolve));
    this.output = new ReadableStream({ start: (controller) => void (this.out = controller) });
    this.input = new WritableStream({ write: (chunk) => void this.typed.push(chunk) });
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

type SpawnHandler = (proc: FakeProcess, fake: FakeWebContainer, args: string[], cwd?: string) => void;

/** An in-memory WebContainer: a file system that reports changes to watchers, scripted processes. */
class FakeWebContainer implements WebContainerLike {
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
  return path.replace(/^\.?\/+/, "").replace(/\/+$/, "");
}

function toBytes(data: string | Uint8Array): Uint8Array {
  return typeof data === "string" ? new TextEncoder().encode(data) : data.slice();
}

let counter = 0;
const cleanup: Array<() => void> = [];
afterEach(() => {
  for (const fn of cleanup.splice(0)) fn();
});

async function setup(seed?: (files: WorkspaceFiles) => Promise<void>) {
  const storage = await openStorage({ name: `runtime-webcontainer-${counter++}-${Date.now()}` });
  const files = await WorkspaceFiles.open(storage, "ws");
  await seed?.(files);
  const fake = new FakeWebContainer();
  const runtime = (await bootWebContainerRuntime(files, { boot: async () => fake })) as WebContainerRuntime;
  cleanup.push(() => {
    runtime.dispose();
    files.dispose();
  });
  const changes: FileChange[] = [];
  files.onDidChange((batch) => changes.push(...batch));
  return { files, fake, runtime, changes };
}

describe("WebContainer runtime (fake container)", () => {
  it("mounts the workspace as a tree, binary files as bytes, empty folders included", async () => {
    const png = new Uint8Array([0x89, 0x50, 0x00, 0xff]);
    const { fake, runtime } = await setup(async (files) => {
      await files.writeFile("package.json", '{"name":"demo"}');
      await files.writeFile("src/index.js", "console.log(1)");
      await files.writeFile("public/logo.png", png);
      await files.mkdir("empty");
    });
    expect(runtime.kind).toBe("webcontainer");
    expect(runtime.capabilities).toEqual({ node: true, npm: true, servers: true });
    expect(fake.mounted).toEqual({
      "package.json": { file: { contents: '{"name":"demo"}' } },
      src: { directory: { "index.js": { file: { contents: "console.log(1)" } } } },
      public: { directory: { "logo.png": { file: { contents: png } } } },
      empty: { directory: {} },
    });
    expect(fake.mounted!.public).toMatchObject({ directory: { "logo.png": { file: { contents: expect.any(Uint8Array) } } } });
  });

  it("brings changes made inside the container back into WorkspaceFiles, but not node_modules", async () => {
    const { files, fake, runtime, changes } = await setup(async (f) => f.writeFile("old.txt", "old"));
    fake.write("generated/out.txt", "built");
    fake.write("node_modules/left-pad/index.js", "module.exports = 1");
    fake.write("package-lock.json", "{}");
    fake.remove("old.txt");
    fake.write("image.bin", new Uint8Array([0, 1, 2]));
    await runtime.sync.settle();
    expect(await files.readText("generated/out.txt")).toBe("built");
    expect(await files.readText("package-lock.json")).toBe("{}");
    expect(Array.from(await files.readFile("image.bin"))).toEqual([0, 1, 2]);
    expect(await files.exists("old.txt")).toBe(false);
    expect(await files.exists("node_modules")).toBe(false);
    expect(files.snapshotPaths().some((p) => p.includes("node_modules"))).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(changes).toContainEqual(expect.objectContaining({ path: "generated/out.txt", type: "created", source: "terminal" }));
    // What came from the container is not written back into it.
    await runtime.sync.settle();
    expect(fake.apiWrites).toEqual([]);
  });

  it("brings back a folder moved inside the container with its contents", async () => {
    const { files, fake, runtime } = await setup(async (f) => f.writeFile("a/one.txt", "1"));
    fake.move("a", "b");
    await runtime.sync.settle();
    expect(await files.readText("b/one.txt")).toBe("1");
    expect(await files.exists("a")).toBe(false);
  });

  it("pushes changes from other sources into the container without echoing them back", async () => {
    const { files, fake, runtime, changes } = await setup(async (f) => f.writeFile("src/a.ts", "a"));
    await files.writeFile("src/a.ts", "edited", { source: "editor" });
    await files.writeFile("src/new/b.ts", "b", { source: "agent" });
    await files.writeFile("bin.dat", new Uint8Array([0, 200]), { source: "import" });
    await new Promise((resolve) => setTimeout(resolve, 10));
    await runtime.sync.settle();
    expect(fake.text("src/a.ts")).toBe("edited");
    expect(fake.text("src/new/b.ts")).toBe("b");
    expect(Array.from(fake.files.get("bin.dat") as Uint8Array)).toEqual([0, 200]);
    // The container's watch reported those writes; none of them came back as a new change.
    await new Promise((resolve) => setTimeout(resolve, 20));
    await runtime.sync.settle();
    const fromContainer = changes.filter((c) => c.source === "terminal" || c.source === "runtime");
    expect(fromContainer).toEqual([]);
    expect(fake.apiWrites.filter((p) => p === "src/a.ts")).toHaveLength(1);

    await files.remove("src/new");
    await files.rename("src/a.ts", "src/renamed.ts");
    await new Promise((resolve) => setTimeout(resolve, 10));
    await runtime.sync.settle();
    expect(fake.files.has("src/new")).toBe(false);
    expect(fake.files.has("src/new/b.ts")).toBe(false);
    expect(fake.text("src/renamed.ts")).toBe("edited");
    expect(fake.files.has("src/a.ts")).toBe(false);
  });

  it("execs with jsh -c, streams output, reports the exit code and the agent as source", async () => {
    const { files, fake, runtime, changes } = await setup();
    fake.onSpawn = (proc, container, args) => {
      if (args[1] === "npm install") {
        proc.print("added 1 package\n");
        container.write("node_modules/x/index.js", "x");
        container.write("package-lock.json", '{"lockfileVersion":3}');
        proc.end(0);
      } else {
        proc.print("boom\n");
        proc.end(2);
      }
    };
    const chunks: string[] = [];
    const result = await runtime.exec("npm install", { cwd: "app", source: "agent", onOutput: (c) => chunks.push(c) });
    expect(fake.spawned[0]).toMatchObject({ command: "jsh", args: ["-c", "npm install"], cwd: "app" });
    expect(result).toEqual({ output: "added 1 package\n", exitCode: 0 });
    expect(chunks).toEqual(["added 1 package\n"]);
    // The command's file changes are in WorkspaceFiles when exec resolves.
    expect(await files.readText("package-lock.json")).toBe('{"lockfileVersion":3}');
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(changes).toContainEqual(expect.objectContaining({ path: "package-lock.json", source: "agent" }));
    expect((await runtime.exec("false")).exitCode).toBe(2);
  });

  it("kills a process at its timeout and on abort", async () => {
    const { fake, runtime } = await setup();
    fake.onSpawn = (proc) => proc.print("starting\n"); // never exits by itself
    const started = Date.now();
    const timedOut = await runtime.exec("npm run dev", { timeoutMs: 100 });
    expect(timedOut.exitCode).toBe(124);
    expect(timedOut.timedOut).toBe(true);
    expect(timedOut.output).toContain("starting");
    expect(timedOut.output).toMatch(/timed out after 100 ms/);
    expect(fake.spawned[0]!.proc.killed).toBe(true);
    expect(Date.now() - started).toBeLessThan(1000);

    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const aborted = await runtime.exec("npm run dev", { signal: controller.signal });
    expect(aborted).toMatchObject({ exitCode: 130, aborted: true });
    expect(fake.spawned[1]!.proc.killed).toBe(true);
  });

  it("opens jsh with the terminal size and passes keystrokes and output through", async () => {
    const { fake, runtime } = await setup();
    fake.onSpawn = (proc) => proc.print("~/workspace ❯ ");
    const shell = runtime.openShell({ cols: 100, rows: 30 });
    shell.write("ls\r"); // typed before the process is ready: kept
    let out = "";
    shell.onData((data) => (out += data));
    await vi.waitFor(() => expect(out).toContain("❯"));
    const spawned = fake.spawned[0]!;
    expect(spawned).toMatchObject({ command: "jsh", args: [], terminal: { cols: 100, rows: 30 } });
    await vi.waitFor(() => expect(spawned.proc.typed.join("")).toBe("ls\r"));
    shell.resize({ cols: 120, rows: 40 });
    expect(spawned.proc.size).toEqual({ cols: 120, rows: 40 });
    shell.dispose();
    expect(spawned.proc.killed).toBe(true);
  });

  it("reports servers from server-ready, also to listeners that subscribe later", async () => {
    const { fake, runtime } = await setup();
    const seen: Array<[number, string]> = [];
    runtime.onServerReady((port, url) => seen.push([port, url]));
    fake.emit("server-ready", 5173, "https://abc.local-credentialless.webcontainer.io");
    expect(seen).toEqual([[5173, "https://abc.local-credentialless.webcontainer.io"]]);
    const late: number[] = [];
    runtime.onServerReady((port) => late.push(port));
    expect(late).toEqual([5173]);
    fake.emit("port", 5173, "close", "");
    const later: number[] = [];
    runtime.onServerReady((port) => later.push(port));
    expect(later).toEqual([]);
  });

  it("dispose tears the container down and stops syncing", async () => {
    const { files, fake, runtime } = await setup();
    runtime.dispose();
    expect(fake.tornDown).toBe(true);
    fake.write("after.txt", "x");
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(await files.exists("after.txt")).toBe(false);
  });
});

describe("bootWebContainerRuntime", () => {
  it("rejects with BootTimeoutError when boot hangs, and tears down a late container", async () => {
    const storage = await openStorage({ name: `runtime-webcontainer-boot-${counter++}` });
    const files = await WorkspaceFiles.open(storage, "ws");
    cleanup.push(() => files.dispose());
    const late = new FakeWebContainer();
    let arrive!: (container: WebContainerLike) => void;
    const started = Date.now();
    const booting = bootWebContainerRuntime(files, { boot: () => new Promise((resolve) => (arrive = resolve)), timeoutMs: 100 });
    await expect(booting).rejects.toBeInstanceOf(BootTimeoutError);
    expect(Date.now() - started).toBeLessThan(1000);
    arrive(late);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(late.tornDown).toBe(true);
  });

  it("passes on a boot failure and honours an abort signal", async () => {
    const storage = await openStorage({ name: `runtime-webcontainer-boot-${counter++}` });
    const files = await WorkspaceFiles.open(storage, "ws");
    cleanup.push(() => files.dispose());
    await expect(bootWebContainerRuntime(files, { boot: async () => Promise.reject(new Error("SharedArrayBuffer is not defined")) })).rejects.toThrow(
      /SharedArrayBuffer/,
    );
    const controller = new AbortController();
    const pending = bootWebContainerRuntime(files, { boot: () => new Promise(() => undefined), signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
  });
});
