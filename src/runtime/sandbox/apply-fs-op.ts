// Replays a program's file change on the page's side, through the shell's file system (so the
// change is attributed to the terminal or the agent that ran the program).
import type { FsOp } from "./protocol";

/** The part of a shell file system a replay needs (just-bash's IFileSystem has it). */
export interface ReplayFs {
  writeFile(path: string, data: Uint8Array | string): Promise<void>;
  mkdir(path: string, options: { recursive: boolean }): Promise<void>;
  rm(path: string, options: { recursive: boolean; force: boolean }): Promise<void>;
  mv(from: string, to: string): Promise<void>;
}

export async function applyFsOp(fs: ReplayFs, op: FsOp): Promise<void> {
  switch (op.kind) {
    case "write":
      return fs.writeFile(op.path, op.data);
    case "mkdir":
      return fs.mkdir(op.path, { recursive: true });
    case "remove":
      return fs.rm(op.path, { recursive: true, force: true });
    case "rename":
      return fs.mv(op.from, op.to);
  }
}
