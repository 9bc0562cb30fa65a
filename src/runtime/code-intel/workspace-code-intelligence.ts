// A workspace's code service for the agent: starts the service on first use (a worker in the page),
// gives it every TS/JS/JSON/CSS source of the workspace (from the workspace file service, so it
// does not depend on the editor having the file open, and works the same in both runtimes) and
// keeps it current with the file service's change notifications.
import type { Disposable } from "../../base";
import type { FileChange, WorkspaceFs } from "../types";
import { isCodeSource } from "./code-service";
import { hasScriptFiles, isSkipped } from "./scripts";
import type { CodeServicePort, FileUpdate } from "./protocol";
import type { CodeQuery, CodeQueryResult, EditedFile, FileDiagnostics } from "./types";

/** Beyond these the service stops adding files (as the editor's TypeScript project does). */
export const MAX_SERVICE_FILES = 2000;
export const MAX_SERVICE_BYTES = 8 * 1024 * 1024;
const BATCH = 100;
const skipped = isSkipped;

export class WorkspaceCodeIntelligence implements Disposable {
  private port: CodeServicePort | undefined;
  private ready: Promise<void> | undefined;
  /** Updates in the order they are sent; each call waits for those before it. */
  private chain: Promise<void> = Promise.resolve();
  private readonly sizes = new Map<string, number>();
  private bytes = 0;
  private listener: Disposable | undefined;
  private disposed = false;

  constructor(
    private readonly fs: WorkspaceFs,
    private readonly connect: () => CodeServicePort,
  ) {}

  /** Errors in the edited files (and their TS/JS importers) after the edit and before it. */
  async diagnose(edits: EditedFile[]): Promise<FileDiagnostics[]> {
    if (!edits.some((edit) => isCodeSource(edit.path))) return [];
    const port = await this.start();
    for (const edit of edits) this.track(edit.path, edit.after);
    return port.diagnose(edits);
  }

  async query(query: CodeQuery): Promise<CodeQueryResult> {
    const port = await this.start();
    return port.query(query);
  }

  /**
   * Starts the service now (before the first edit) so that the first answer is warm; not in a
   * workspace without a file it checks (the worker is 1.5 MB gzipped: loaded only when of use).
   */
  warm(): void {
    if (this.ready || this.disposed) return;
    void this.fs
      .listAll()
      .then((all) => all.some((stat) => stat.kind === "file" && isCodeSource(stat.path) && !skipped(stat.path)))
      .then(async (useful) => {
        if (useful) await (await this.start()).warm();
      })
      .catch(() => undefined);
  }

  /** Whether the workspace has a TypeScript or JavaScript file of its own (node_modules and .git left out). */
  async hasScripts(): Promise<boolean> {
    return hasScriptFiles(this.fs);
  }

  dispose(): void {
    this.disposed = true;
    this.listener?.dispose();
    this.port?.close();
    this.port = undefined;
  }

  private start(): Promise<CodeServicePort> {
    if (this.disposed) return Promise.reject(new Error("The code service was closed."));
    if (!this.ready) {
      this.port = this.connect();
      // Changes during the first load are queued behind it.
      this.listener = this.fs.onDidChange((changes) => this.enqueue(() => this.onChanges(changes)));
      this.ready = this.enqueue(() => this.loadAll());
    }
    const port = this.port!;
    return this.ready.then(() => this.chain).then(() => port);
  }

  private enqueue(task: () => Promise<void>): Promise<void> {
    const next = this.chain.then(task);
    this.chain = next.catch((error: unknown) => console.warn("webcode: the code service missed a file change", error));
    return next;
  }

  private async loadAll(): Promise<void> {
    const all = await this.fs.listAll();
    let batch: FileUpdate[] = [];
    for (const stat of all) {
      if (this.disposed) return;
      if (stat.kind !== "file" || !isCodeSource(stat.path) || skipped(stat.path)) continue;
      const update = await this.read(stat.path);
      if (update) batch.push(update);
      if (batch.length >= BATCH) {
        await this.port!.update(batch);
        batch = [];
      }
    }
    if (batch.length) await this.port!.update(batch);
  }

  private async onChanges(changes: FileChange[]): Promise<void> {
    const updates: FileUpdate[] = [];
    for (const change of changes) {
      if (change.type === "deleted") {
        // Every known file at or under the path (a folder's files may come without their own change).
        for (const path of [...this.sizes.keys()]) {
          if (path === change.path || path.startsWith(change.path + "/")) {
            this.track(path, undefined);
            updates.push({ path, text: null });
          }
        }
      } else if (change.kind === "file" && isCodeSource(change.path) && !skipped(change.path)) {
        const update = await this.read(change.path);
        if (update) updates.push(update);
      }
    }
    if (updates.length && this.port) await this.port.update(updates);
  }

  private async read(path: string): Promise<FileUpdate | undefined> {
    let text: string;
    try {
      text = await this.fs.readText(path);
    } catch {
      this.track(path, undefined);
      return { path, text: null };
    }
    return this.track(path, text) ? { path, text } : undefined;
  }

  /** Counts the file against the caps; false when it does not fit. */
  private track(path: string, text: string | undefined): boolean {
    const previous = this.sizes.get(path);
    if (text === undefined) {
      if (previous !== undefined) {
        this.bytes -= previous;
        this.sizes.delete(path);
      }
      return true;
    }
    if (previous === undefined && this.sizes.size >= MAX_SERVICE_FILES) return false;
    if (this.bytes - (previous ?? 0) + text.length > MAX_SERVICE_BYTES) return false;
    this.bytes += text.length - (previous ?? 0);
    this.sizes.set(path, text.length);
    return true;
  }
}
