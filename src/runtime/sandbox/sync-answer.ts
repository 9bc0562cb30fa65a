// The answer to a program's synchronous child (execSync, spawnSync): how the child ended and what it
// changed in the workspace, as bytes, since the waiting worker reads it from its shared mailbox, not
// its message port (stdin-mailbox.ts). Only the changes travel (not the whole workspace, which a
// node_modules makes tens of megabytes): a build tool that calls execSync in a loop stays fast.
// Hand-written: a JSON head plus raw bytes is all it needs; no npm package is smaller.
import type { ChildResult, FileData } from "./protocol";
import { MAILBOX_CAPACITY } from "./stdin-mailbox";

/** What a child changed: files written (new or different content), paths removed, folders there after it. */
export interface WorkspaceChanges {
  written: Array<[path: string, data: FileData]>;
  removed: string[];
  dirs: string[];
}

export interface SyncChildAnswer {
  result: ChildResult;
  changes?: WorkspaceChanges;
}

/** The changes between two views of the workspace (path → content; unchanged files keep their value). */
export function diffSnapshots(before: ReadonlyMap<string, FileData>, after: ReadonlyMap<string, FileData>, dirsBefore: ReadonlySet<string>, dirsAfter: ReadonlySet<string>): WorkspaceChanges {
  const written: WorkspaceChanges["written"] = [];
  const removed: string[] = [];
  for (const [path, data] of after) if (!sameData(before.get(path), data)) written.push([path, data]);
  for (const path of before.keys()) if (!after.has(path)) removed.push(path);
  for (const dir of dirsBefore) if (!dirsAfter.has(dir)) removed.push(dir);
  return { written, removed, dirs: [...dirsAfter].filter((dir) => !dirsBefore.has(dir)) };
}

function sameData(a: FileData | undefined, b: FileData): boolean {
  if (a === b) return true;
  if (a === undefined || typeof a === "string" || typeof b === "string" || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Layout: 4 bytes (the head's length), the head (JSON, byte arrays replaced by their index), then the arrays' bytes in order. */
export function encodeSyncAnswer(answer: SyncChildAnswer): Uint8Array {
  const blobs: Uint8Array[] = [];
  const head = JSON.stringify(answer, (_key, value: unknown) => {
    if (!(value instanceof Uint8Array)) return value;
    blobs.push(value);
    return { $bytes: blobs.length - 1 };
  });
  const headBytes = new TextEncoder().encode(JSON.stringify({ head, sizes: blobs.map((blob) => blob.length) }));
  const total = 4 + headBytes.length + blobs.reduce((sum, blob) => sum + blob.length, 0);
  const out = new Uint8Array(total);
  new DataView(out.buffer).setUint32(0, headBytes.length);
  out.set(headBytes, 4);
  let offset = 4 + headBytes.length;
  for (const blob of blobs) {
    out.set(blob, offset);
    offset += blob.length;
  }
  return out;
}

export function decodeSyncAnswer(bytes: Uint8Array): SyncChildAnswer {
  const headLength = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0);
  const { head, sizes } = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + headLength))) as { head: string; sizes: number[] };
  const blobs: Uint8Array[] = [];
  let offset = 4 + headLength;
  for (const size of sizes) {
    blobs.push(bytes.slice(offset, offset + size));
    offset += size;
  }
  return JSON.parse(head, (_key, value: unknown) => {
    const index = (value as { $bytes?: unknown } | null)?.$bytes;
    return typeof index === "number" ? blobs[index] : value;
  }) as SyncChildAnswer;
}

/** A synchronous child's answer (with what it changed, if anything) as the mailbox parts the blocked program takes one by one. */
export function syncAnswerParts(result: ChildResult, changes?: WorkspaceChanges): Uint8Array[] {
  return answerParts(encodeSyncAnswer(changes ? { result, changes } : { result }), MAILBOX_CAPACITY);
}

/** Splits an answer into mailbox-sized parts (at least one, so an answer is never taken for its end). */
function answerParts(bytes: Uint8Array, capacity: number): Uint8Array[] {
  const parts: Uint8Array[] = [];
  for (let offset = 0; offset < bytes.length; offset += capacity) parts.push(bytes.subarray(offset, offset + capacity));
  return parts.length > 0 ? parts : [new Uint8Array()];
}
