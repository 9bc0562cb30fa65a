// The files a session changed, from its patch parts, and for each its content before the session
// touched it (from the step-start snapshot) and now (from the workspace) — for the Changes view.
import { tryDecodeText } from "../../base";
import type { WorkspaceFs } from "../../runtime";
import type { Storage } from "../../storage";
import type { MessageEntry } from "./chat-store";

export interface ChangedFile {
  path: string;
  /** The snapshot taken at the start of the first step that changed the file. */
  snapshot?: string;
}

/** Text content, `null` when the file does not exist, or "binary". */
export type FileContent = string | null | { binary: true };

/** Changed files in the order they were first changed. */
export function changedFiles(entries: readonly MessageEntry[]): ChangedFile[] {
  const files = new Map<string, ChangedFile>();
  for (const entry of entries) {
    let snapshot: string | undefined;
    for (const part of entry.parts) {
      if (part.type === "step-start") snapshot = part.snapshot;
      else if (part.type === "patch") {
        for (const path of part.files) if (!files.has(path)) files.set(path, { path, ...(snapshot && { snapshot }) });
      }
    }
  }
  return [...files.values()];
}

export interface ChangesSource {
  before(file: ChangedFile): Promise<FileContent>;
  after(path: string): Promise<FileContent>;
  /** Puts the file back as it was before the session changed it (deleting it if it was new). */
  revert(file: ChangedFile): Promise<void>;
}

function decode(data: string | Uint8Array): FileContent {
  if (typeof data === "string") return data;
  return tryDecodeText(data) ?? { binary: true };
}

/** Reads "before" from storage snapshots and blobs, "after" from the workspace file service. */
export class SnapshotChangesSource implements ChangesSource {
  constructor(
    private readonly storage: Pick<Storage, "snapshots" | "blobs">,
    private readonly fs: WorkspaceFs,
  ) {}

  private async beforeData(file: ChangedFile): Promise<string | Uint8Array | null> {
    if (!file.snapshot) throw new Error(`No snapshot was recorded before ${file.path} changed, so its earlier content is unknown.`);
    const snapshot = await this.storage.snapshots.get(file.snapshot);
    if (!snapshot) throw new Error(`The snapshot from before ${file.path} changed is missing.`);
    const hash = snapshot.files[file.path];
    if (hash === undefined) return null;
    const blob = await this.storage.blobs.get(hash);
    if (!blob) throw new Error(`The earlier content of ${file.path} is missing from storage.`);
    return blob.data;
  }

  async before(file: ChangedFile): Promise<FileContent> {
    const data = await this.beforeData(file);
    return data === null ? null : decode(data);
  }

  async after(path: string): Promise<FileContent> {
    if (!(await this.fs.exists(path))) return null;
    return decode(await this.fs.readFile(path));
  }

  async revert(file: ChangedFile): Promise<void> {
    const data = await this.beforeData(file);
    if (data === null) {
      if (await this.fs.exists(file.path)) await this.fs.remove(file.path, { source: "user" });
    } else {
      await this.fs.writeFile(file.path, data, { source: "user" });
    }
  }
}

export interface LineDiff {
  /** Unified-style lines: " " same, "-" removed, "+" added. */
  lines: string[];
  additions: number;
  deletions: number;
}

/**
 * A coarse line diff for when no diff editor is supplied: common head and tail kept (3 lines of
 * context), the changed middle shown as removed then added.
 */
export function coarseLineDiff(before: string, after: string, context = 3): LineDiff {
  const a = before === "" ? [] : before.split("\n");
  const b = after === "" ? [] : after.split("\n");
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const removed = a.slice(head, a.length - tail);
  const added = b.slice(head, b.length - tail);
  const lines = [
    ...a.slice(Math.max(0, head - context), head).map((l) => ` ${l}`),
    ...removed.map((l) => `-${l}`),
    ...added.map((l) => `+${l}`),
    ...a.slice(a.length - tail, Math.min(a.length, a.length - tail + context)).map((l) => ` ${l}`),
  ];
  return { lines, additions: added.length, deletions: removed.length };
}
