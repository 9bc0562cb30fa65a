// Workspace records: create (with a starter README), rename, delete, list. Names are validated here
// so every caller (sessions panel, share-link import, zip import) refuses the same things.
import { UserFacingError, hasInvisibleChars, invisibleCharsProblem } from "../base";
import { newWorkspace, type Storage, type WorkspaceRecord } from "../storage";
import { WorkspaceFiles } from "./workspace-files";

export const MAX_WORKSPACE_NAME_LENGTH = 80;

/** The README a new workspace starts with: what to do next in this app. */
export const STARTER_README = `# Welcome to your workspace

Everything here lives in this browser tab and is kept in its storage across reloads.

What to do next:

- **Open a file** from the file tree on the left (or press Ctrl+P); save with Ctrl+S.
- **Use the terminal** at the bottom to run shell commands (\`ls\`, \`cat\`, \`grep\`, \`mkdir\`, ...).
- **Use the agent**: configure a model and your API key in **Settings**, then describe what you want in the chat.
- **Import a project**: import a \`.zip\` of an existing repository to work on it here.

You can delete or rewrite this file at any time.
`;

const STORED_LINE = "Everything here lives in this browser tab and is kept in its storage across reloads.";
const TEMPORARY_LINE =
  "Everything here lives in this browser tab only: the browser would not let webcode store data, so it is lost when the tab is closed or reloaded. Export what you want to keep as a zip.";

export function validateWorkspaceName(name: string): string | undefined {
  // Before trimming (trim() strips U+FEFF) and for the same reason as file names: a bidi control can
  // make "report\u202Efdp.exe" read as "reportexe.pdf".
  const invisible = invisibleCharsProblem(name);
  if (invisible) return invisible;
  const trimmed = name.trim();
  if (trimmed === "") return "A workspace name cannot be empty.";
  if (trimmed.length > MAX_WORKSPACE_NAME_LENGTH) {
    return `A workspace name can be at most ${MAX_WORKSPACE_NAME_LENGTH} characters long.`;
  }
  if (/[\u0000-\u001f\u007f]/.test(trimmed)) return "A workspace name cannot contain control characters.";
  return undefined;
}

function checkName(name: string): string {
  const problem = validateWorkspaceName(name);
  if (problem) throw new UserFacingError(problem, "workspace-name");
  return name.trim();
}

/** Refuses a name another workspace has (letter case aside); run inside the write's transaction. */
function refuseTakenName(all: readonly WorkspaceRecord[], name: string, exceptId: string): void {
  const lower = name.toLowerCase();
  const clash = all.find((w) => w.id !== exceptId && w.name.toLowerCase() === lower);
  if (clash) throw new UserFacingError(`A workspace named "${clash.name}" already exists. Choose another name.`, "workspace-name");
}

/** A free name based on `base`: "base", then "base 2", "base 3", ... (for imports and share links). */
export async function suggestWorkspaceName(storage: Storage, base: string): Promise<string> {
  const visible = Array.from(base, (c) => (hasInvisibleChars(c) ? "" : c)).join("");
  const stem = (validateWorkspaceName(visible) ? "Workspace" : visible.trim()).slice(0, MAX_WORKSPACE_NAME_LENGTH - 4);
  const taken = new Set((await storage.workspaces.list()).map((w) => w.name.toLowerCase()));
  if (!taken.has(stem.toLowerCase())) return stem;
  for (let n = 2; ; n++) {
    const candidate = `${stem} ${n}`;
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
}

/**
 * A workspace to open when the list was empty: created (with the README) unless another tab made
 * one meanwhile, which is then returned, so two tabs opened at once share one first workspace.
 */
export async function ensureWorkspace(storage: Storage, name: string): Promise<WorkspaceRecord> {
  const fresh = newWorkspace({ name: checkName(name) }, Date.now());
  const record = await storage.workspaces.putChecked(fresh.id, (_current, all) => all[0] ?? fresh);
  if (record === fresh) await seedReadme(storage, record);
  return record;
}

export async function createWorkspace(
  storage: Storage,
  name: string,
  options: { seedReadme?: boolean; /** A given id (a synced workspace joined from an invite): an existing one is returned as it is. */ id?: string } = {},
): Promise<WorkspaceRecord> {
  const checked = checkName(name);
  const now = Date.now();
  const fresh: WorkspaceRecord = newWorkspace({ name: checked }, now);
  const record: WorkspaceRecord = options.id === undefined ? fresh : { ...fresh, id: options.id };
  let existing: WorkspaceRecord | undefined;
  await storage.workspaces.putChecked(record.id, (current, all) => {
    if (current) return (existing = current);
    refuseTakenName(all, checked, record.id);
    return record;
  });
  if (existing) return existing;
  if (options.seedReadme ?? true) await seedReadme(storage, record);
  return record;
}

async function seedReadme(storage: Storage, record: WorkspaceRecord): Promise<void> {
  const files = await WorkspaceFiles.open(storage, record.id);
  // On the in-memory stand-in for IndexedDB nothing is kept: the README must not promise it is.
  const readme = storage.inMemory ? STARTER_README.replace(STORED_LINE, TEMPORARY_LINE) : STARTER_README;
  files.writeSync("README.md", readme, { source: "system" });
  await files.close();
}

function workspaceGone(): UserFacingError {
  return new UserFacingError("That workspace no longer exists (it may have been deleted in another tab). Reload the page.", "workspace-not-found");
}

async function requireWorkspace(storage: Storage, id: string): Promise<WorkspaceRecord> {
  const record = await storage.workspaces.get(id);
  if (!record) throw workspaceGone();
  return record;
}

export async function renameWorkspace(storage: Storage, id: string, name: string): Promise<WorkspaceRecord> {
  const checked = checkName(name);
  // One transaction: a workspace deleted in another tab meanwhile is not written back without its files.
  return storage.workspaces.putChecked(id, (current, all) => {
    if (!current) throw workspaceGone();
    refuseTakenName(all, checked, id);
    return { ...current, name: checked, updatedAt: Date.now() };
  });
}

/** Deletes a workspace with its files, snapshots and sessions. */
export async function deleteWorkspace(storage: Storage, id: string): Promise<void> {
  await requireWorkspace(storage, id);
  await storage.workspaces.delete(id);
  // Its snapshots went with it; the file contents only they kept go too.
  await storage.maintenance.pruneBlobs();
}

/** All workspaces, most recently updated first. */
export function listWorkspaces(storage: Storage): Promise<WorkspaceRecord[]> {
  return storage.workspaces.list();
}
