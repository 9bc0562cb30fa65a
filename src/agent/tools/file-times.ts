// The read-before-write check (docs/agent.md, "Tools"): a session may overwrite or edit an existing file only
// after reading it, and only if nobody changed it since.
import type { FileStat } from "../../runtime";
import type { FileTimes } from "./tool";

/** An in-memory FileTimes for one session (the loop keeps one per session). */
export function createFileTimes(): FileTimes {
  const times = new Map<string, number>();
  return {
    markRead: (path, mtime) => void times.set(path, mtime),
    lastRead: (path) => times.get(path),
  };
}

/** Throws when `stat` (an existing file) was not read by this session or changed since it was. */
export function assertReadBefore(fileTimes: FileTimes, path: string, stat: FileStat, action: "overwrite" | "edit" | "patch" | "delete"): void {
  const read = fileTimes.lastRead(path);
  if (read === undefined) {
    throw new Error(`You must read ${path} with the read tool before you ${action} it. Read it first, then retry.`);
  }
  if (stat.mtime !== read) {
    throw new Error(`${path} was modified since you last read it (by the user or a command). Read it again before you ${action} it.`);
  }
}
