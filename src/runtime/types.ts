// The Runtime interface (docs/architecture.md, "Runtime"): what the agent, transfer and UI may know about the
// machine that holds the workspace and runs commands. Implementations: browser/, webcontainer/.
import type { Disposable } from "../base";

export type RuntimeKind = "webcontainer" | "browser";

import type { ExecGate } from "./egress";

export interface RuntimeCapabilities {
  node: boolean;
  npm: boolean;
  servers: boolean;
  /** python3 (Pyodide in the isolated execution host); absent means no. */
  python?: boolean;
  /** exec() shows its `gate` every command and request as it runs (the browser runtime); absent means no. */
  gate?: boolean;
}

/**
 * Who made a change; the editor uses it to tell its own saves from changes underneath it. "sync":
 * another device's or a collaborator's change, arriving through the sync server (src/storage/sync).
 */
export type ChangeSource = "editor" | "terminal" | "agent" | "import" | "runtime" | "user" | "system" | "other-tab" | "sync";

export interface FileStat {
  path: string;
  kind: "file" | "dir";
  size: number;
  mtime: number;
}

export interface FileChange {
  type: "created" | "changed" | "deleted";
  path: string;
  kind: "file" | "dir";
  source: ChangeSource;
  /** On a "created" change made by a rename or move: the old path (its "deleted" change is in the same batch). */
  renamedFrom?: string;
}

export interface WriteOptions {
  source?: ChangeSource;
  /**
   * The caller writes many changes and calls flush() itself (imports): the write returns without
   * waiting for storage. Otherwise a write resolves once stored and rejects when it was not.
   */
  batched?: boolean;
  /**
   * The content this write was made from (an editor's text as last loaded or saved). When the file
   * holds something else now (a terminal or another tab wrote it since), the two changes are merged
   * line by line; if both changed the same lines nothing is written and the write fails with
   * ECONFLICT, so the writer can let the user choose. Without it the write replaces the file.
   */
  base?: string;
}

/** Workspace paths are relative to the workspace root ("src/a.ts"); see base/paths.ts. */
export interface WorkspaceFs {
  readonly workspaceId: string;
  /** True when every change is refused (a shared session before "Continue"). */
  readonly readOnly?: boolean;
  stat(path: string): Promise<FileStat | undefined>;
  exists(path: string): Promise<boolean>;
  readFile(path: string): Promise<Uint8Array>;
  readText(path: string): Promise<string>;
  /** Creates parent folders as needed. */
  writeFile(path: string, data: string | Uint8Array, options?: WriteOptions): Promise<void>;
  mkdir(path: string, options?: WriteOptions): Promise<void>;
  /** Removes a file, or a folder with everything in it. */
  remove(path: string, options?: WriteOptions): Promise<void>;
  /** Renames or moves a file or folder; refuses to overwrite an existing target. */
  rename(from: string, to: string, options?: WriteOptions): Promise<void>;
  /** Direct children of a folder ("" = root), folders first then by name. */
  list(dir?: string): Promise<FileStat[]>;
  /** Every file and folder of the workspace. */
  listAll(): Promise<FileStat[]>;
  /** Batched change notifications (one call per tick with every change made in it). */
  onDidChange(listener: (changes: FileChange[]) => void): Disposable;
  /** Persistence failures (e.g. quota exceeded); the unstored changes were undone in memory. */
  onDidFailToPersist(listener: (error: Error) => void): Disposable;
  /** Resolves when every change so far is persisted; rejects (ENOSPC, EIO) when they were undone. */
  flush(): Promise<void>;
}

export interface ExecOptions {
  cwd?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
  onOutput?: (chunk: string) => void;
  env?: Record<string, string>;
  /** Whom file changes made by the command are attributed to (default "runtime"; the agent passes "agent"). */
  source?: ChangeSource;
  /**
   * Checks each command as it is about to run and each request before it leaves (egress.ts). Only
   * runtimes with `capabilities.gate` honour it; others run the line as a whole.
   */
  gate?: ExecGate;
}

export interface ExecResult {
  output: string;
  exitCode: number;
  timedOut?: boolean;
  aborted?: boolean;
}

/** An interactive shell session for the terminal; bytes in (keystrokes), bytes out (ANSI). */
export interface Shell extends Disposable {
  write(data: string): void;
  onData(listener: (data: string) => void): Disposable;
  resize(size: { cols: number; rows: number }): void;
}

/** Something that went wrong outside any command, for a notification. */
export interface RuntimeProblem {
  /** "container": WebContainer's own error event; "file-sync": a change not carried between it and the workspace. */
  kind: "container" | "file-sync";
  message: string;
}

export interface Runtime extends Disposable {
  /**
   * Like dispose, but resolves once it is done: its processes have ended and every change they
   * made is in the workspace files (so the files may close, and the next workspace may use the
   * container). Absent: dispose is already complete when it returns.
   */
  close?(): Promise<void>;
  /**
   * Resolves when the changes its processes made so far are in the workspace files and the
   * workspace's changes are in its file system (WebContainer's sync). Absent: they share the files.
   */
  settle?(): Promise<void>;
  readonly kind: RuntimeKind;
  readonly capabilities: RuntimeCapabilities;
  readonly fs: WorkspaceFs;
  exec(command: string, options?: ExecOptions): Promise<ExecResult>;
  openShell(size: { cols: number; rows: number }): Shell;
  /**
   * Servers already up are reported synchronously, during this call (replays); later ones as they
   * become ready. `startedBy`: who started it, when the runtime knows (the built-in preview: the
   * source of the command or call that started it, undefined for the Preview panel's own button).
   */
  onServerReady(listener: (port: number, url: string, startedBy?: ChangeSource) => void): Disposable;
  /** A server reported by onServerReady stopped (its port closed). Absent: the runtime runs no servers. */
  onServerClosed?(listener: (port: number) => void): Disposable;
  /** Errors outside any command (the container's, file sync's), for the user to see. */
  onDidReportProblem?(listener: (problem: RuntimeProblem) => void): Disposable;
  /**
   * The built-in preview (the browser runtime's; kept after a move to WebContainer): serves a folder
   * of the workspace as a website from this page and reports it through onServerReady.
   */
  startPreview?(options?: PreviewStartOptions): Promise<PreviewStart>;
  /**
   * Answers a request of a built-in preview (its fetch() calls: a GET, or `request`'s method,
   * headers and body); undefined when no preview of this runtime serves `url`.
   */
  previewRequest?(url: string, request?: PreviewRequest): Promise<PreviewReply | undefined>;
  /**
   * After a change of the files: the hot update for the built-in preview's page build `build` at
   * `url` (the modules to evaluate again in the frame), or a reload (src/runtime/preview/hot-update.ts).
   */
  previewUpdate?(url: string, build: string): Promise<PreviewHotUpdate>;
}

export interface PreviewStartOptions {
  /** The folder to serve (workspace path; default: where the site's index.html is). */
  root?: string;
  /** The port the command asked for (shown only: nothing listens on it). */
  port?: number;
  /** Who asked (the agent's commands: "agent"); undefined is the user, from the Preview panel. */
  source?: ChangeSource;
}

export interface PreviewStart {
  url: string;
  root: string;
  port: number;
  /** The preview runs the project's PostCSS (its config and plugins, with node on the isolated execution host). */
  postcssRuns?: boolean;
}

export interface PreviewReply {
  status: number;
  contentType: string;
  body: string | Uint8Array;
  /** The response's headers besides its content type, when a program's server answered. */
  headers?: Array<[name: string, value: string]>;
}

/** A previewed page's fetch() that is not a plain GET: sent on to a program's server as it was made. */
export interface PreviewRequest {
  method: string;
  headers: Array<[name: string, value: string]>;
  body?: Uint8Array;
}

/** The same shape as src/runtime/preview/hot-update.ts's HotUpdate. */
export type PreviewHotUpdate =
  | { kind: "reload"; reason: string }
  | { kind: "hot"; imports: Record<string, string>; entries: string[]; removeStyles: string[]; shell: string; modules: string[] };

/** Why the browser runtime is in use instead of WebContainer (shown in the notice). */
export type FallbackReason =
  | { kind: "not-isolated" }
  | { kind: "unsupported-browser" }
  | { kind: "boot-timeout"; timeoutMs: number }
  | { kind: "boot-failed"; message: string }
  /** It was running, then stopped answering (health check): torn down; Retry boots a new one. */
  | { kind: "lost"; message: string }
  | { kind: "forced" }
  /** "Use WebContainer when available" is turned off in Settings → Runtime. */
  | { kind: "disabled" };

/** Where a workspace's commands run, as the status bar says it. */
export type RuntimeStage =
  /** The browser runtime only: WebContainer is off (Settings, or ?runtime=browser). */
  | { stage: "browser"; reason: FallbackReason }
  /** The browser runtime, while WebContainer boots (or the workspace is being mounted into it). */
  | { stage: "starting" }
  /** Moved to WebContainer: Node.js runs the commands. */
  | { stage: "node" }
  /** The browser runtime; WebContainer cannot run here or did not boot. */
  | { stage: "unavailable"; reason: FallbackReason; canRetry: boolean };

/** A runtime that may move to WebContainer while it is in use (see workspace-runtime.ts). */
export interface RuntimeUpgrade {
  readonly stage: RuntimeStage;
  onDidChange(listener: (stage: RuntimeStage) => void): Disposable;
  /** The status bar's "Retry" after a timeout or failure. */
  retry(): void;
}
