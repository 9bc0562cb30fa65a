// Keeps WebContainer's file system and WorkspaceFiles in step. Changes made inside the container
// (terminal, npm install, dev servers) flow into WorkspaceFiles, except dependencies, build output
// and caches (sync-exclusions.ts); changes made elsewhere (editor, agent, import) are pushed into
// the container, renames as renames. A mirror of what the container holds makes each direction
// ignore the echo of the other, so nothing loops.
import { basename, bytesEqual, dirname, errorMessage, validatePath, type Disposable } from "../../base";
import type { ChangeSource, FileChange } from "../types";
import { toStoredContent } from "../file-content";
import type { WorkspaceFiles } from "../workspace-files";
import { SYNC_EXCLUDE_FILE, SyncExclusions } from "./sync-exclusions";
import type { MountTree, WatcherLike, WebContainerLike } from "./webcontainer-like";
import { delay } from "../interruption";

/** Watch events gather this long before they are read back (an npm install fires thousands). */
export const WATCH_QUIET_MS = 30;
/**
 * settle() writes a marker file and waits for its watch event: the container reports events in
 * order, so every change made before the marker has been reported by then. If the event never
 * comes (a broken watcher), it gives up after this long.
 */
export const MARKER_TIMEOUT_MS = 3000;
/** Inside node_modules: never synced, and ignored by the dev servers' and test runners' watchers. */
export const MARKER_FOLDER = "node_modules/.webcode-sync";
/** A folder deeper than this is not followed when a folder is pulled (a guard against link loops). */
export const MAX_PULL_DEPTH = 48;

const DIR = Symbol("dir");
type Mirrored = string | Uint8Array | typeof DIR;

/**
 * Whether a workspace path is inside a node_modules folder. Those are never carried in either
 * direction: each runtime owns its own dependencies (docs/architecture.md, "Runtime"). The browser
 * npm's tree (no install scripts, packages with native code left unbuilt) stays in the workspace
 * for the browser runtime; WebContainer's npm installs its own from package.json and the lockfile.
 */
export function isInNodeModules(path: string): boolean {
  return path === "node_modules" || path.startsWith("node_modules/") || path.includes("/node_modules/") || path.endsWith("/node_modules");
}

/** A name the real mount cannot carry: its JSON conversion makes it an object's prototype. */
const UNMOUNTABLE = "__proto__";

/** Paths never brought back from the container under the default list. */
export function isExcludedFromSync(path: string): boolean {
  return new SyncExclusions().excludes(path);
}

/** Errors that mean "not there" (or "not that kind of thing"), as opposed to a failure to read. */
function isMissing(error: unknown): boolean {
  return /\b(ENOENT|ENOTDIR|EISDIR)\b/.test(errorMessage(error));
}

function sameContent(a: string | Uint8Array, b: string | Uint8Array): boolean {
  if (typeof a === "string" || typeof b === "string") return a === b;
  return bytesEqual(a, b);
}

export interface ContainerFileSyncOptions {
  /** Who changes seen in the container are attributed to (the agent while its command runs). */
  sourceOfContainerChanges: () => ChangeSource;
  /** A change that could not be carried across (shown to the user). */
  onError?: (error: unknown) => void;
  /** Entries added to the defaults and to the workspace's SYNC_EXCLUDE_FILE. */
  exclude?: readonly string[];
}

export class ContainerFileSync implements Disposable {
  private readonly mirror = new Map<string, Mirrored>();
  private pending = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Every container operation runs on this chain, in order. */
  private chain: Promise<void> = Promise.resolve();
  private watcher: WatcherLike | undefined;
  private subscription: Disposable | undefined;
  private exclusions: SyncExclusions;
  private readonly markers = new Map<string, () => void>();
  private markerCount = 0;
  private disposed = false;

  constructor(
    private readonly container: WebContainerLike,
    private readonly files: WorkspaceFiles,
    private readonly options: ContainerFileSyncOptions,
  ) {
    this.exclusions = this.readExclusions();
  }

  /** Mounts the workspace (binary files as bytes), then starts syncing both ways. */
  async start(): Promise<void> {
    // Subscribe first: a change made while mounting is compared with the mirror and pushed after.
    this.subscription = this.files.onDidChange((changes) => this.push(changes));
    // Folders are null-prototype objects so that no name is special here; names the real mount
    // cannot carry are written one by one after it.
    const tree: MountTree = Object.create(null) as MountTree;
    const late: string[] = [];
    const folderOf = (path: string): MountTree | undefined => {
      if (path === "") return tree;
      const parent = folderOf(dirname(path));
      if (!parent) return undefined;
      const name = basename(path);
      if (name === UNMOUNTABLE) return undefined;
      let node = parent[name];
      if (!node || !("directory" in node)) {
        node = { directory: Object.create(null) as MountTree };
        parent[name] = node;
      }
      return node.directory;
    };
    for (const path of this.files.snapshotPaths()) {
      const stat = this.files.statSync(path);
      if (stat?.kind !== "dir" || isInNodeModules(path)) continue;
      if (folderOf(path)) this.mirror.set(path, DIR);
      else late.push(path);
    }
    for (const [path, data] of this.files.entries()) {
      if (isInNodeModules(path)) continue;
      const folder = folderOf(dirname(path));
      if (folder && basename(path) !== UNMOUNTABLE) {
        folder[basename(path)] = { file: { contents: data } };
        this.mirror.set(path, data);
      } else late.push(path);
    }
    const mounted = this.container.mount(tree);
    this.chain = mounted.catch(() => undefined);
    await mounted;
    this.watcher = this.container.fs.watch(".", { recursive: true }, (_event, filename) => this.noticeContainerChange(filename));
    if (late.length > 0) {
      this.enqueue(async () => {
        for (const path of late.sort()) await this.pushPath(path);
      });
      await this.chain;
    }
  }

  /** Resolves when changes made in the workspace so far are in the container. */
  async pushed(): Promise<void> {
    // WorkspaceFiles reports a task's changes in one batch on a zero-delay timer; a timer set now
    // fires after it, so the batch is on the chain by then.
    await new Promise((resolve) => setTimeout(resolve, 0));
    await this.chain;
  }

  /**
   * Resolves when every change made in the container so far is in WorkspaceFiles (and every change
   * made in the workspace is in the container).
   */
  async settle(): Promise<void> {
    await this.pushed();
    if (this.disposed || !this.watcher) return;
    const marker = `${MARKER_FOLDER}/${Date.now().toString(36)}-${++this.markerCount}`;
    const seen = new Promise<boolean>((resolve) => this.markers.set(marker, () => resolve(true)));
    try {
      await this.container.fs.mkdir(MARKER_FOLDER, { recursive: true });
      await this.container.fs.writeFile(marker, "");
      if (!(await Promise.race([seen, delay(MARKER_TIMEOUT_MS).then(() => false)]))) {
        this.options.onError?.(new Error(`WebContainer did not report file changes within ${MARKER_TIMEOUT_MS / 1000} s; the file tree may show them late.`));
      }
    } catch {
      // The marker could not be written (node_modules being replaced right now): fall back to a short wait.
      await delay(WATCH_QUIET_MS);
    } finally {
      this.markers.delete(marker);
      void this.container.fs.rm(marker, { force: true }).catch(() => undefined);
    }
    this.pullPending();
    await this.chain;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.watcher?.close();
    this.subscription?.dispose();
    for (const resolve of this.markers.values()) resolve();
    this.markers.clear();
  }

  private readExclusions(): SyncExclusions {
    let text = "";
    try {
      const content = this.files.statSync(SYNC_EXCLUDE_FILE)?.kind === "file" ? this.files.readSync(SYNC_EXCLUDE_FILE) : "";
      text = typeof content === "string" ? content : "";
    } catch {
      text = "";
    }
    return new SyncExclusions([...(this.options.exclude ?? []), ...text.split(/\r?\n/)]);
  }

  private enqueue(task: () => Promise<void>): void {
    this.chain = this.chain.then(task).catch((error: unknown) => this.options.onError?.(error));
  }

  // ---- container -> workspace ---------------------------------------------------------------

  private noticeContainerChange(filename: string | Uint8Array): void {
    if (this.disposed) return;
    const raw = typeof filename === "string" ? filename : new TextDecoder().decode(filename);
    const path = raw.replace(/^\.?\/+/, "").replace(/\/+$/, "");
    if (this.markers.size > 0) this.markers.get(path)?.();
    if (path === "" || path === "." || this.exclusions.excludes(path)) return;
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
      const failed: string[] = [];
      let firstError: unknown;
      for (const path of paths) {
        try {
          await this.pull(path, undefined, 0);
        } catch (error) {
          failed.push(path);
          firstError ??= error;
        }
      }
      if (failed.length > 0) {
        const more = failed.length > 1 ? ` and ${failed.length - 1} more` : "";
        this.options.onError?.(new Error(`"${failed[0]}"${more} changed in WebContainer but could not be brought into the workspace: ${errorMessage(firstError)}`));
      }
    });
  }

  /**
   * Reads one path back from the container and applies what changed to WorkspaceFiles. `kind` is
   * what the parent's listing said it is, when known; a link (neither file nor folder) is skipped.
   */
  private async pull(path: string, kind: "file" | "dir" | undefined, depth: number): Promise<void> {
    if (this.disposed || this.exclusions.excludes(path)) return;
    try {
      validatePath(path);
    } catch {
      return; // a name the workspace cannot hold (e.g. "a:b"); it stays in the container only
    }
    const source = this.options.sourceOfContainerChanges();
    const fs = this.container.fs;
    const mirrored = this.mirror.get(path);
    let bytes: Uint8Array | undefined;
    let entries: Array<{ name: string; isFile(): boolean; isDirectory(): boolean }> | undefined;
    let readError: unknown;
    if (kind !== "dir") {
      try {
        bytes = await fs.readFile(path);
      } catch (error) {
        readError = error; // a folder, or gone
      }
    }
    if (bytes === undefined) {
      try {
        entries = await fs.readdir(path, { withFileTypes: true });
      } catch (error) {
        // Gone from the container, unless reading failed for another reason: then nothing is deleted.
        if (!isMissing(error) || (readError !== undefined && !isMissing(readError))) throw readError ?? error;
      }
      // readFile follows links, readdir too: only a folder its parent lists as one is pulled as a
      // folder, so a link to a folder above it cannot make this recurse.
      if (entries && kind === undefined && !(await this.listedAsFolder(path))) return;
    }
    if (bytes === undefined && entries === undefined) {
      if (mirrored !== undefined) this.forget(path);
      if (this.files.statSync(path)) this.files.removeSync(path, { source });
      return;
    }
    const current = this.files.statSync(path);
    if (entries) {
      if (mirrored === DIR && current?.kind === "dir") return;
      this.mirror.set(path, DIR);
      if (current?.kind === "file") this.files.removeSync(path, { source });
      if (current?.kind !== "dir") this.files.mkdirSync(path, { source });
      if (depth >= MAX_PULL_DEPTH) return;
      // A folder that appeared at once (moved in, unpacked) brings its contents along.
      for (const entry of entries) {
        const child = `${path}/${entry.name}`;
        if (entry.isDirectory()) await this.pull(child, "dir", depth + 1);
        else if (entry.isFile()) await this.pull(child, "file", depth + 1);
      }
      return;
    }
    const stored = toStoredContent(bytes!);
    if (mirrored !== undefined && mirrored !== DIR && sameContent(mirrored, stored) && current?.kind === "file") return;
    this.mirror.set(path, stored);
    for (let dir = dirname(path); dir !== ""; dir = dirname(dir)) this.mirror.set(dir, DIR);
    if (current?.kind === "dir") this.files.removeSync(path, { source });
    this.files.writeSync(path, stored, { source });
    if (path === SYNC_EXCLUDE_FILE) this.exclusions = this.readExclusions();
  }

  private async listedAsFolder(path: string): Promise<boolean> {
    const parent = dirname(path);
    try {
      const siblings = await this.container.fs.readdir(parent === "" ? "." : parent, { withFileTypes: true });
      return siblings.some((entry) => entry.name === basename(path) && entry.isDirectory());
    } catch {
      return false;
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
    if (paths.includes(SYNC_EXCLUDE_FILE)) this.exclusions = this.readExclusions();
    // A moved folder reports every path under it; rename only the top of each moved tree.
    const moves = new Map<string, string>();
    for (const c of changes) if (c.type === "created" && c.renamedFrom !== undefined) moves.set(c.renamedFrom, c.path);
    const renames = [...moves].filter(([from, to]) => moves.get(dirname(from)) !== dirname(to));
    this.enqueue(async () => {
      for (const [from, to] of renames) await this.renameInContainer(from, to);
      const failed: string[] = [];
      let firstError: unknown;
      for (const path of paths) {
        try {
          await this.pushPath(path);
        } catch (error) {
          failed.push(path);
          firstError ??= error;
        }
      }
      if (failed.length > 0) {
        const more = failed.length > 1 ? ` and ${failed.length - 1} more` : "";
        throw new Error(`"${failed[0]}"${more} could not be copied into WebContainer, so commands there see the old version: ${errorMessage(firstError)}`);
      }
    });
  }

  /** Renames in the container what the mirror says is there; pushPath writes whatever is left. */
  private async renameInContainer(from: string, to: string): Promise<void> {
    if (this.disposed || isInNodeModules(from) || isInNodeModules(to)) return;
    const mirrored = this.mirror.get(from);
    if (mirrored === undefined || this.mirror.has(to)) return;
    await this.ensureFolder(dirname(to));
    try {
      await this.container.fs.rename(from, to);
    } catch (error) {
      // Not there after all (removed in the container meanwhile): written afresh by pushPath.
      this.options.onError?.(new Error(`"${from}" could not be renamed to "${to}" in WebContainer: ${errorMessage(error)}`));
      return;
    }
    const prefix = from + "/";
    const moved = [...this.mirror].filter(([key]) => key === from || key.startsWith(prefix));
    for (const [key] of moved) this.mirror.delete(key);
    for (const [key, value] of moved) this.mirror.set(to + key.slice(from.length), value);
  }

  private async pushPath(path: string): Promise<void> {
    if (this.disposed || isInNodeModules(path)) return;
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
