// Keeps Monaco's TypeScript workers aware of the whole workspace: open files are models; every
// other source file is an "extra lib" with its file URI, so `import { x } from "./b"` resolves and
// diagnostics are real. Loaded with Monaco (lazy chunk).
import { DisposableStore, isInside, type Disposable } from "../../base";
import type { WorkspaceFs } from "../../runtime";
import { isTypeScriptSource } from "./languages";
import { monaco, monacoBuffers, uriForPath } from "./monaco-setup";

/** Beyond these the project stops adding files (a huge import should not stall the editor). */
export const MAX_PROJECT_FILES = 2000;
export const MAX_PROJECT_BYTES = 8 * 1024 * 1024;
const SYNC_DELAY_MS = 150;
const SKIPPED_FOLDERS = ["node_modules", ".git"];

function skipped(path: string): boolean {
  return SKIPPED_FOLDERS.some((folder) => path === folder || path.startsWith(folder + "/") || path.includes("/" + folder + "/"));
}

export class TypeScriptProject implements Disposable {
  private readonly sources = new Map<string, string>();
  private readonly disposables = new DisposableStore();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private bytes = 0;

  constructor(private readonly files: WorkspaceFs) {
    this.disposables.add(files.onDidChange((changes) => void this.onChanges(changes)));
    this.disposables.add(monaco.editor.onDidCreateModel(() => this.schedule()));
    this.disposables.add(monaco.editor.onWillDisposeModel(() => this.schedule()));
    void this.loadAll();
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.disposables.dispose();
    this.sources.clear();
    for (const defaults of [monaco.typescript.typescriptDefaults, monaco.typescript.javascriptDefaults]) defaults.setExtraLibs([]);
  }

  private async loadAll(): Promise<void> {
    const all = await this.files.listAll();
    for (const stat of all) {
      if (this.disposables.isDisposed) return;
      if (stat.kind !== "file" || !isTypeScriptSource(stat.path) || skipped(stat.path)) continue;
      await this.read(stat.path);
    }
    this.schedule();
  }

  private async read(path: string): Promise<void> {
    if (this.sources.size >= MAX_PROJECT_FILES && !this.sources.has(path)) return;
    try {
      const text = await this.files.readText(path);
      const previous = this.sources.get(path);
      if (this.bytes - (previous?.length ?? 0) + text.length > MAX_PROJECT_BYTES) return;
      this.bytes += text.length - (previous?.length ?? 0);
      this.sources.set(path, text);
    } catch {
      this.forget(path);
    }
  }

  private forget(path: string): void {
    for (const key of [...this.sources.keys()]) {
      if (isInside(key, path)) {
        this.bytes -= this.sources.get(key)!.length;
        this.sources.delete(key);
      }
    }
  }

  private async onChanges(changes: Array<{ type: string; path: string; kind: string }>): Promise<void> {
    for (const change of changes) {
      if (change.type === "deleted") this.forget(change.path);
      else if (change.kind === "file" && isTypeScriptSource(change.path) && !skipped(change.path)) await this.read(change.path);
    }
    this.schedule();
  }

  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.push(), SYNC_DELAY_MS);
  }

  private push(): void {
    if (this.disposables.isDisposed) return;
    const libs: Array<{ content: string; filePath: string }> = [];
    for (const [path, content] of this.sources) {
      // An open file is a model already; a second copy as an extra lib would clash with it.
      if (monacoBuffers.model(path)) continue;
      libs.push({ content, filePath: uriForPath(path).toString() });
    }
    for (const defaults of [monaco.typescript.typescriptDefaults, monaco.typescript.javascriptDefaults]) defaults.setExtraLibs(libs);
  }
}
