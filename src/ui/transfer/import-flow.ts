// The import dialog's state machine, outside React so it survives the workspace switch at its end
// (the top bar remounts then): options -> reading (download, unzip/walk) -> writing -> done, with
// a conflict question for imports into the current workspace, Cancel, and errors that leave every
// workspace untouched.
import { createStore, type StoreApi } from "zustand/vanilla";
import { UserFacingError, errorMessage, formatBytes, isAbortError, revealInvisibleChars } from "../../base";
import type { WorkspaceFs } from "../../runtime";
import { validateWorkspaceName } from "../../runtime";
import type { Storage, WorkspaceRecord } from "../../storage";
import { MAX_IMPORT_BYTES, importAsNewWorkspace, importIntoWorkspace, type ImportProgress, type ImportResult } from "../../transfer";
import type { ImportSource, ReadPhase } from "./import-sources";

export type ImportTarget = "new" | "current";
export type ConflictChoice = "replace" | "skip" | "cancel";
export type ImportPhase = ReadPhase | "write";

/** What the flow needs from the open workbench (a subset of WorkbenchServices). */
export interface ImportContext {
  storage: Storage;
  workspace: WorkspaceRecord;
  files: WorkspaceFs;
  workspaces: { refresh(): Promise<void>; switchTo(id: string): Promise<void> };
  notifications: { info(message: string): unknown; error(error: unknown, context?: string): unknown };
  /** Settles unsaved editor changes before leaving the workspace; false keeps the user here. */
  beforeLeave?(): Promise<boolean>;
}

export interface ImportOptionsState {
  target: ImportTarget;
  /** The new workspace's name. */
  name: string;
  keepNodeModules: boolean;
  /** Keep the .git folder: its history then works with git in the browser runtime. */
  keepGit: boolean;
}

export type ImportState =
  | { step: "closed" }
  /** A link: nothing is requested until the user agrees to download from its host. */
  | { step: "confirm"; source: ImportSource; host: string; url: string; warning?: string }
  | ({ step: "options"; source: ImportSource; currentName: string; currentReadOnly: boolean; nameError?: string } & ImportOptionsState)
  | { step: "running"; source: ImportSource; phase: ImportPhase; progress: ImportProgress; cancellable: boolean }
  | { step: "conflicts"; source: ImportSource; conflicts: string[] }
  | { step: "error"; source: ImportSource; message: string };

/**
 * Tells the user something without letting a failing toast turn a finished import into a reported
 * failure (the import's outcome must be told truthfully even if the notice cannot be shown).
 */
export function tellUser(notifications: { info(message: string): unknown }, message: string): void {
  try {
    notifications.info(message);
  } catch (error) {
    console.error("webcode: a notice could not be shown:", message, error);
  }
}

const NO_PROGRESS: ImportProgress = { files: 0, totalFiles: 0, bytes: 0, totalBytes: 0 };

export class ImportFlow {
  readonly store: StoreApi<ImportState> = createStore<ImportState>(() => ({ step: "closed" }));
  private context?: ImportContext;
  private abort?: AbortController;
  private answerConflicts?: (choice: ConflictChoice) => void;
  private preparing?: Promise<void>;

  get state(): ImportState {
    return this.store.getState();
  }

  /** Opens the dialog for a source; a running import is not interrupted (the new one is refused). */
  open(source: ImportSource, context: ImportContext): boolean {
    const step = this.state.step;
    if (step === "running" || step === "conflicts") {
      tellUser(context.notifications, "An import is already running. Wait for it to finish or cancel it first.");
      return false;
    }
    this.context = context;
    if (source.ask) {
      this.preparing = undefined;
      this.store.setState({ step: "confirm", source, ...source.ask }, true);
    } else if (source.prepare) this.preparing = this.prepare(source, context);
    else this.showOptions(source, context);
    return true;
  }

  /** "Download": the user agreed to the request the confirm step named. */
  confirmDownload(): void {
    const state = this.state;
    const context = this.context;
    if (state.step !== "confirm" || !context) return;
    if (state.source.prepare) this.preparing = this.prepare(state.source, context);
    else this.showOptions(state.source, context);
  }

  /** Settles once the dialog opened last shows its options, an error, or was cancelled. */
  whenOpened(): Promise<void> {
    return this.preparing ?? Promise.resolve();
  }

  private showOptions(source: ImportSource, context: ImportContext): void {
    this.store.setState(
      { step: "options", source, currentName: context.workspace.name, currentReadOnly: context.workspace.readOnly === true, target: "new", name: source.name, keepNodeModules: false, keepGit: false },
      true,
    );
  }

  /**
   * Validates what the options do not change before asking them: a broken or hostile zip, a bad or
   * unreachable link is reported at once instead of after the user has filled in the options.
   */
  private async prepare(source: ImportSource, context: ImportContext): Promise<void> {
    const abort = new AbortController();
    this.abort = abort;
    const running = (phase: ImportPhase, progress: ImportProgress) => this.store.setState({ step: "running", source, phase, progress, cancellable: true }, true);
    running("check", NO_PROGRESS);
    try {
      await source.prepare!(running, abort.signal);
      if (abort.signal.aborted) throw new DOMException("The import was cancelled.", "AbortError");
      this.showOptions(source, context);
    } catch (error) {
      if (isAbortError(error) || abort.signal.aborted) {
        this.finish();
        tellUser(context.notifications, "Import cancelled. Nothing was imported.");
        return;
      }
      this.store.setState({ step: "error", source, message: failureMessage(error) }, true);
    } finally {
      if (this.abort === abort) this.abort = undefined;
    }
  }

  setOptions(patch: Partial<ImportOptionsState>): void {
    const state = this.state;
    if (state.step !== "options") return;
    const next = { ...state, ...patch };
    // A shared read-only workspace takes no imports, and a repository opens as a workspace of its own.
    if (next.currentReadOnly || state.source.newWorkspaceOnly) next.target = "new";
    delete next.nameError;
    this.store.setState(next, true);
  }

  /** Cancel: closes the dialog, or stops a running read (and a write into a new workspace). */
  cancel(): void {
    const state = this.state;
    if (state.step === "running") {
      if (state.cancellable) this.abort?.abort();
      return;
    }
    if (state.step === "conflicts") {
      this.answerConflicts?.("cancel");
      return;
    }
    this.close();
  }

  close(): void {
    if (this.state.step === "running" || this.state.step === "conflicts") return;
    this.store.setState({ step: "closed" }, true);
    this.context = undefined;
  }

  resolveConflicts(choice: ConflictChoice): void {
    this.answerConflicts?.(choice);
  }

  /** Runs the import with the chosen options. Resolves when it has finished, failed or been cancelled. */
  async start(): Promise<void> {
    const state = this.state;
    const context = this.context;
    if (state.step !== "options" || !context) return;
    const { source, target, keepNodeModules, keepGit } = state;
    const name = state.name.trim();
    if (target === "new") {
      const problem = validateWorkspaceName(name);
      if (problem) {
        this.store.setState({ ...state, nameError: problem }, true);
        return;
      }
    }
    const abort = new AbortController();
    this.abort = abort;
    const running = (phase: ImportPhase, progress: ImportProgress, cancellable = true) =>
      this.store.setState({ step: "running", source, phase, progress, cancellable }, true);
    running("read", NO_PROGRESS);
    try {
      const result = await source.read({ keepNodeModules, keepGit }, (phase, progress) => running(phase, progress), abort.signal);
      if (abort.signal.aborted) throw new DOMException("The import was cancelled.", "AbortError");
      if (target === "new") await this.writeNew(context, name, result, abort.signal, running);
      else await this.writeCurrent(context, result, running);
    } catch (error) {
      if (isAbortError(error) || abort.signal.aborted) {
        this.finish();
        tellUser(context.notifications, "Import cancelled. Nothing was imported.");
        return;
      }
      this.store.setState({ step: "error", source, message: failureMessage(error) }, true);
    } finally {
      this.abort = undefined;
    }
  }

  private finish(): void {
    this.store.setState({ step: "closed" }, true);
    this.context = undefined;
  }

  private async writeNew(
    context: ImportContext,
    name: string,
    result: ImportResult,
    signal: AbortSignal,
    running: (phase: ImportPhase, progress: ImportProgress, cancellable?: boolean) => void,
  ): Promise<void> {
    const totalFiles = result.entries.filter((e) => e.kind === "file").length;
    running("write", { ...NO_PROGRESS, totalFiles, totalBytes: result.bytes });
    const workspace = await importAsNewWorkspace(context.storage, name, result.entries, {
      ...(result.upstream && { upstream: result.upstream }),
      onProgress: (progress) => {
        // Throwing here makes importAsNewWorkspace remove what it wrote: nothing is left behind.
        if (signal.aborted) throw new DOMException("The import was cancelled.", "AbortError");
        running("write", progress);
      },
    });
    this.finish();
    const message = `Imported ${describeImport(result, totalFiles)} into the new workspace "${workspace.name}".${describeSkipped(result)}`;
    // The import is done from here on: a failure to switch must not be reported as a failed import.
    try {
      await context.workspaces.refresh();
      if (context.beforeLeave && !(await context.beforeLeave())) {
        tellUser(context.notifications, `${message} Switch to it from the workspace list when you are ready.`);
        return;
      }
      await context.workspaces.switchTo(workspace.id);
    } catch (error) {
      context.notifications.error(error, `${message} Opening it failed; pick it from the workspace list`);
      return;
    }
    tellUser(context.notifications, message);
  }

  private async writeCurrent(context: ImportContext, result: ImportResult, running: (phase: ImportPhase, progress: ImportProgress, cancellable?: boolean) => void): Promise<void> {
    const source = (this.state as { source: ImportSource }).source;
    const totalFiles = result.entries.filter((e) => e.kind === "file").length;
    // Set from the conflict question's callback (an object, so its value is read after the await).
    const decision: { choice: ConflictChoice } = { choice: "replace" };
    const ask = (conflicts: string[]) =>
      new Promise<boolean>((resolve) => {
        this.store.setState({ step: "conflicts", source, conflicts }, true);
        this.answerConflicts = (answer) => {
          this.answerConflicts = undefined;
          decision.choice = answer;
          resolve(answer === "replace");
        };
      });
    // Writing into an open workspace cannot be rolled back half-way, so it is not cancellable.
    const write = (overwrite: "ask" | "skip") =>
      importIntoWorkspace(context.files, result.entries, {
        overwrite,
        confirm: ask,
        onProgress: (progress) => running("write", progress, false),
      });
    running("write", { ...NO_PROGRESS, totalFiles, totalBytes: result.bytes }, false);
    let outcome = await write("ask");
    if (outcome.cancelled && decision.choice === "skip") {
      running("write", { ...NO_PROGRESS, totalFiles, totalBytes: result.bytes }, false);
      outcome = await write("skip");
    }
    if (outcome.cancelled) {
      this.finish();
      tellUser(context.notifications, "Import cancelled. Nothing was imported.");
      return;
    }
    this.finish();
    const filePaths = new Set(result.entries.filter((e) => e.kind === "file").map((e) => e.path));
    const writtenFiles = totalFiles - outcome.skipped.filter((p) => filePaths.has(p)).length;
    const kept = outcome.skipped.length > 0 ? ` Kept ${count(outcome.skipped.length, "existing file")} as they were.` : "";
    const replaced = decision.choice === "replace" && outcome.conflicts.length > 0 ? ` Replaced ${count(outcome.conflicts.length, "existing file")}.` : "";
    tellUser(context.notifications, `Imported ${count(writtenFiles, "file")} into "${context.workspace.name}".${replaced}${kept}${describeSkipped(result)}`);
  }
}

function failureMessage(error: unknown): string {
  return error instanceof UserFacingError ? error.message : `The import failed: ${errorMessage(error).replace(/\.$/, "")}.`;
}

function count(n: number, noun: string, plural = `${noun}s`): string {
  return `${n.toLocaleString("en")} ${n === 1 ? noun : plural}`;
}

function describeImport(result: ImportResult, files: number): string {
  return `${count(files, "file")} (${formatBytes(result.bytes)})`;
}

/** Names of skipped files listed in the summary; the rest are counted. */
const MAX_LISTED_SKIPPED_NAMES = 10;

/**
 * " Left out 120 entries in node_modules and 30 entries in .git. Skipped 1 file with a name webcode
 * cannot store: we:ird.txt." or "".
 */
export function describeSkipped(result: ImportResult): string {
  const { nodeModules, git, macMetadata = 0, unstorable, symlinks = 0, submodules = 0 } = result.skipped;
  const parts: string[] = [];
  if (nodeModules > 0) parts.push(`${count(nodeModules, "entry", "entries")} in node_modules`);
  if (git > 0) parts.push(`${count(git, "entry", "entries")} in .git`);
  if (macMetadata > 0) parts.push(`${count(macMetadata, "macOS metadata entry", "macOS metadata entries")} (__MACOSX, .DS_Store)`);
  if (symlinks > 0) parts.push(count(symlinks, "symbolic link"));
  if (submodules > 0) parts.push(count(submodules, "submodule"));
  let text = "";
  if (parts.length) text += ` Left out ${parts.length > 1 ? `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}` : parts[0]}.`;
  if (unstorable && unstorable.names.length > 0) {
    const listed = unstorable.names.slice(0, MAX_LISTED_SKIPPED_NAMES).map(revealInvisibleChars);
    const more = unstorable.names.length - listed.length;
    const what = unstorable.files === 1 ? "1 file with a name" : `${count(unstorable.files, "file")} with names`;
    text += ` Skipped ${what} webcode cannot store: ${listed.join(", ")}${more > 0 ? ` and ${more.toLocaleString("en")} more` : ""}.`;
  }
  const lfs = result.lfsPointers ?? [];
  if (lfs.length > 0) {
    const listed = lfs.slice(0, MAX_LISTED_SKIPPED_NAMES).map(revealInvisibleChars);
    const more = lfs.length - listed.length;
    text += ` Kept ${lfs.length === 1 ? "1 Git LFS pointer" : `${count(lfs.length, "Git LFS pointer")}`} as ${lfs.length === 1 ? "it is" : "they are"} (the content stays on GitHub): ${listed.join(", ")}${more > 0 ? ` and ${more.toLocaleString("en")} more` : ""}.`;
  }
  return text;
}

/** "Reading 120 of 450 files · 1.2 MB of 3.4 MB" for the progress bar's text. */
export function describeProgress(phase: ImportPhase, progress: ImportProgress): string {
  const bytes = progress.totalBytes > 0 ? `${formatBytes(progress.bytes)} of ${formatBytes(progress.totalBytes)}` : formatBytes(progress.bytes);
  if (phase === "download") return `Downloading · ${bytes}${progress.totalBytes > 0 ? "" : ` (stops at ${formatBytes(MAX_IMPORT_BYTES)})`}`;
  if (phase === "check") return `Checking the zip · ${formatBytes(progress.totalBytes)}`;
  if (phase === "list") return "Listing the repository's files";
  const verb = phase === "read" ? "Reading" : "Saving";
  const files = progress.totalFiles > 0 ? `${progress.files.toLocaleString("en")} of ${count(progress.totalFiles, "file")}` : "files";
  return `${verb} ${files} · ${bytes}`;
}

/** 0..100 when the total is known. */
export function progressPercent(progress: ImportProgress): number | undefined {
  if (progress.totalBytes > 0) return Math.min(100, Math.round((progress.bytes / progress.totalBytes) * 100));
  if (progress.totalFiles > 0) return Math.min(100, Math.round((progress.files / progress.totalFiles) * 100));
  return undefined;
}
