// Keeps WebContainer's file system and WorkspaceFiles in step. Changes made inside the container
// (terminal, npm install, dev servers) flow into WorkspaceFiles, except node_modules; changes made
// elsewhere (editor, agent, import) are pushed into the container. A mirror of what the container
// holds makes each direction ignore the echo of the other, so nothing loops.
import { bytesEqual, dirname, validatePath, type Disposable } from "../../base";
import type { ChangeSource, FileChange } from "../types";
import { toStoredContent, type WorkspaceFiles } from "../workspace-files";
import type { MountTree, WatcherLike, WebContainerLike } from "./webcontainer-like";

/** Watch events gather this long before they are read back (an npm install fires thousands). */
export const WATCH_QUIET_MS = 30;

const DIR = Symbol("dir");
type Mirrored = string | Uint8Array | typeof DIR;

/** Paths never brought back from the container. */
export function isExcludedFromSync(path: string): boolean {
  return path.split("/").includes("node_modules");
}

function sameContent(a: string | Uint8Array, b: string | Uint8Array): boolean {
  if (typeof a === "string" || typeof b === "string") return a === b;
  return bytesEqual(a, b);
}

export class ContainerFileSync implements Disposable {
  private readonly mirror = new Map<string, Mirrored>();
  private pending = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Every container operation runs on this chain, in order. */
  private chain: Promise<void> = Promise.resolve();
  private watcher: WatcherLike | undefined;
  private subscription: Disposable | undefined;
  private disposed = false;

  constructor(
    private readonly container: WebContainerLike,
    private readonly files: WorkspaceFiles,
    /** Who changes seen in the container are attributed to (the agent while its command runs). */
    private readonly sourceOfContainerChanges: () => ChangeSource,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  /** Mounts the workspace (binary files as bytes), then starts syncing both ways. */
  async start(): Promise<void> {
    // Subscribe first: a change made while mounting is compared with the mirror and pushed after.
    this.subscription = this.files.onDidChange((changes) => this.push(changes));
    const tree: MountTree = {};
    const folderOf = (path: string): MountTree => {
      if (path === "") return tree;
      const parent = folderOf(dirname(path));
      const name = path.slice(path.lastIndexOf("/") + 1);
      let node = parent[name];
      if (!node || !("directory" in node)) {
        node = { directory: {} };
        parent[name] = node;
      }
      this.mirror.set(path, DIR);
      return node.directory;
    };
    for (const path of this.files.snapshotPaths()) {
      const stat = this.files.statSync(path);
      if (stat?.kind === "dir") folderOf(path);
    }
    for (const [path, data] of this.files.entries()) {
      folderOf(dirname(path))[path.slice(path.lastIndexOf("/") + 1)] = { file: { contents: data } };
      this.mirror.set(path, data);
    }
    const mounted = this.container.mount(tree);
    this.chain = mounted.catch(() => undefined);
    await mounted;
    this.watcher = this.container.fs.watch(".", { recursive: true }, (_event, filename) => this.noticeContainerChange(filename));
  }

  /** Resolves when changes seen so far (in both directions) are applied. */
  async settle(): Promise<void> {
    // Watch events are delivered a little after the write inside the container.
    await new Promise((resolve) => setTimeout(resolve, WATCH_QUIET_MS));
    this.pullPending();
    await this.chain;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.watcher?.close();
    this.subscription?.dispose();
  }

  private enqueue(task: () => Promise<void>): void {
    this.chain = this.chain.then(task).catch((error: unknown) => this.onError(error));
  }

  // ---- container -> workspace ---------------------------------------------------------------

  private noticeContainerChange(filename: string | Uint8Array): void {
    if (this.disposed) return;
    const raw = typeof filename === "string" ? filename : new TextDecoder().decode(filename);
    const path = raw.replace(/^\.?\/+/, "").replace(/\/+$/, "");
    if (path === "" || path === "." || isExcludedFromSync(path)) return;
    this.pending.add(path);
    this.timer ??= setTimeout(() => this.pullPending(), WATCH_QUIET_MS);
  }

  private pullPending(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.size === 0) return;
    const paths = [...this.pending].sort();
    this.pending = new Set();
    this.enqueue(async () => {
      for (const path of paths) await this.pull(path);
    });
  }

  /** Reads one path back from the container and applies what changed to WorkspaceFiles. */
  private async pull(path: string): Promise<void> {
    if (this.disposed || isExcludedFromSync(path)) return;
    try {
      validatePath(path);
    } catch {
      return; // a name the workspace cannot hold (e.g. "a:b"); it stays in the container only
    }
    const source = this.sourceOfContainerChanges();
    const fs = this.container.fs;
    const mirrored = this.mirror.get(path);
    let bytes: Uint8Array | undefined;
    let isDir = false;
    try {
      bytes = await fs.readFile(path);
    } catch {
      try {
        await fs.readdir(path, { withFileTypes: true });
        isDir = true;
      } catch {
        // Gone from the container.
      }
    }
    try {
      if (bytes === undefined && !isDir) {
        if (mirrored !== undefined) this.forget(path);
        if (this.files.statSync(path)) this.files.removeSync(path, { source });
        return;
      }
      const current = this.files.statSync(path);
      if (isDir) {
        if (mirrored === DIR && current?.kind === "dir") return;
        this.mirror.set(path, DIR);
        if (current?.kind === "file") this.files.removeSync(path, { source });
        if (current?.kind !== "dir") this.files.mkdirSync(path, { source });
        // A folder that appeared at once (moved in, unpacked) brings its contents along.
        for (const entry of await fs.readdir(path, { withFileTypes: true })) {
          await this.pull(`${path}/${entry.name}`);
        }
        return;
      }
      const stored = toStoredContent(bytes!);
      if (mirrored !== undefined && mirrored !== DIR && sameContent(mirrored, stored) && current?.kind === "file") return;
      this.mirror.set(path, stored);
      for (let dir = dirname(path); dir !== ""; dir = dirname(dir)) this.mirror.set(dir, DIR);
      if (current?.kind === "dir") this.files.removeSync(path, { source });
      this.files.writeSync(path, stored, { source });
    } catch (error) {
      this.onError(error);
    }
  }

  /** Drops a path and everything under it from the mirror. */
  private forget(path: string): void {
    this.mirror.delete(path);
    const prefix = path + "/";
    for (const key of [...this.mirror.keys()]) if (key.startsWith(prefix)) this.mirror.delete(key);
  }

  // ---- workspace -> container ---------------------------------------------------------------

  private push(changes: FileChange[]): void {
    if (this.disposed) return;
    const paths = [...new Set(changes.map((c) => c.path))];
    this.enqueue(async () => {
      for (const path of paths) await this.pushPath(path);
    });
  }

  private async pushPath(path: string): Promise<void> {
    if (this.disposed) return;
    const fs = this.container.fs;
    const stat = this.files.statSync(path);
    const mirrored = this.mirror.get(path);
    if (!stat) {
      if (mirrored === undefined) return;
      this.forget(path);
      await fs.rm(path, { recursive: true, force: true });
      return;
    }
    if (stat.kind === "dir") {
      if (mirrored === DIR) return;
      if (mirrored !== undefined) await fs.rm(path, { force: true });
      await this.ensureFolder(path);
      return;
    }
    const content = this.files.readSync(path);
    if (mirrored !== undefined && mirrored !== DIR && sameContent(mirrored, content)) return;
    if (mirrored === DIR) {
      this.forget(path);
      await fs.rm(path, { recursive: true, force: true });
    }
    await this.ensureFolder(dirname(path));
    this.mirror.set(path, content);
    await fs.writeFile(path, content);
  }

  private async ensureFolder(path: string): Promise<void> {
    if (path === "" || this.mirror.get(path) === DIR) return;
    await this.container.fs.mkdir(path, { recursive: true });
    for (let dir = path; dir !== ""; dir = dirname(dir)) this.mirror.set(dir, DIR);
  }
}
