// Project instruction files: AGENTS.md (else CLAUDE.md) at the workspace root for the system prompt,
// and the ones in folders between a file and the root for the read tool's reminders.
import { dirname, joinPath } from "../../base";
import type { WorkspaceFs } from "../../runtime";

export const INSTRUCTION_FILES = ["AGENTS.md", "CLAUDE.md"] as const;
/** Instruction files larger than this are cut: they are paid for on every request. */
export const MAX_INSTRUCTION_BYTES = 32_000;

export interface InstructionFile {
  path: string;
  text: string;
}

async function readInstructions(fs: WorkspaceFs, folder: string): Promise<InstructionFile | undefined> {
  for (const name of INSTRUCTION_FILES) {
    const path = joinPath(folder, name);
    const stat = await fs.stat(path);
    if (stat?.kind !== "file") continue;
    let text = await fs.readText(path);
    if (text.length > MAX_INSTRUCTION_BYTES) text = `${text.slice(0, MAX_INSTRUCTION_BYTES)}\n[truncated: ${path} is longer than ${MAX_INSTRUCTION_BYTES} characters]`;
    if (text.trim()) return { path, text: text.trim() };
  }
  return undefined;
}

/** The root instruction file, if any (AGENTS.md wins over CLAUDE.md). */
export async function loadRootInstructions(fs: WorkspaceFs): Promise<InstructionFile | undefined> {
  return readInstructions(fs, "");
}

export function formatInstructions(file: InstructionFile): string {
  return `Instructions from: ${file.path}\n${file.text}`;
}

/**
 * Instruction files in the folders between `filePath` and the root (root excluded: it is in the
 * system prompt), nearest last, that are not in `alreadyLoaded`. Adds the returned paths to it.
 */
export async function loadDirectoryInstructions(fs: WorkspaceFs, filePath: string, alreadyLoaded: Set<string>): Promise<InstructionFile[]> {
  const folders: string[] = [];
  for (let folder = dirname(filePath); folder !== ""; folder = dirname(folder)) folders.unshift(folder);
  const found: InstructionFile[] = [];
  for (const folder of folders) {
    const file = await readInstructions(fs, folder);
    if (!file || file.path === filePath || alreadyLoaded.has(file.path)) continue;
    alreadyLoaded.add(file.path);
    found.push(file);
  }
  return found;
}
