// Project instruction files: AGENTS.md (else CLAUDE.md) at the workspace root for the system prompt,
// and the ones in folders between a file and the root for the read tool's reminders.
import { dirname, joinPath, normalizePath } from "../../base";
import type { WorkspaceFs } from "../../runtime";
import { loadOpencodeConfig } from "../agents/opencode-config";
import { matchGlob } from "../../base";

/** opencode.json's `instructions` adds at most this many files to the system prompt. */
export const MAX_CONFIG_INSTRUCTION_FILES = 10;

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

async function readCapped(fs: WorkspaceFs, path: string): Promise<InstructionFile | undefined> {
  const stat = await fs.stat(path).catch(() => undefined);
  if (stat?.kind !== "file") return undefined;
  let text = await fs.readText(path);
  if (text.length > MAX_INSTRUCTION_BYTES) text = `${text.slice(0, MAX_INSTRUCTION_BYTES)}\n[truncated: ${path} is longer than ${MAX_INSTRUCTION_BYTES} characters]`;
  return text.trim() ? { path, text: text.trim() } : undefined;
}

/**
 * The extra instruction files opencode.json / opencode.jsonc lists in `instructions` (workspace
 * paths or globs; URLs and paths outside the workspace are skipped), at most
 * MAX_CONFIG_INSTRUCTION_FILES, without the root file already in the prompt.
 */
export async function loadConfigInstructions(fs: WorkspaceFs, skip: ReadonlySet<string> = new Set()): Promise<InstructionFile[]> {
  const { config } = await loadOpencodeConfig(fs);
  const found: InstructionFile[] = [];
  const seen = new Set(skip);
  let all: string[] | undefined;
  for (const entry of config.instructions ?? []) {
    if (found.length >= MAX_CONFIG_INSTRUCTION_FILES) break;
    if (/^[a-z]+:\/\//i.test(entry) || entry.startsWith("/") || entry.startsWith("~")) continue;
    let paths: string[];
    if (/[*?[\]{}]/.test(entry)) {
      all ??= (await fs.listAll()).filter((s) => s.kind === "file").map((s) => s.path).sort();
      paths = all.filter((path) => matchGlob(entry.replace(/^\.\//, ""), path));
    } else {
      try {
        paths = [normalizePath(entry)];
      } catch {
        continue;
      }
    }
    for (const path of paths) {
      if (found.length >= MAX_CONFIG_INSTRUCTION_FILES || seen.has(path)) continue;
      seen.add(path);
      const file = await readCapped(fs, path);
      if (file) found.push(file);
    }
  }
  return found;
}
