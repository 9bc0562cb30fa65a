// What the Share dialog shares: a session of the open workspace (its transcript from storage) and
// the workspace's files as stored; and how the user's choices about secret findings become
// encoder options (leave a file out, or redact key-like strings in the transcript). The API keys
// configured in Settings are looked for too, whatever their format; they are never shared.
import { newSession, type SessionRecord, type Storage, type WorkspaceRecord } from "../../storage";
import { scanForSecrets, type ShareEncodeOptions, type ShareSource } from "../../transfer";
import { groupFindings, type FindingGroup } from "../transfer/secret-findings";

// The findings list is shared with the export dialog; these stay importable from here.
export { configuredSecrets, describeFinding, groupFindings, loadKnownSecrets, type FindingGroup } from "../transfer/secret-findings";

/** Top-level sessions of a workspace, most recently updated first (the one the chat opens first). */
export async function workspaceSessions(storage: Storage, workspaceId: string): Promise<SessionRecord[]> {
  const sessions = await storage.sessions.list(workspaceId);
  return sessions.filter((s) => !s.parentId && !s.archived).sort((a, b) => b.updatedAt - a.updatedAt || (a.id < b.id ? 1 : -1));
}

/** A stand-in session for sharing a workspace that has no chat yet: only its files are shared. */
export function filesOnlySession(workspace: WorkspaceRecord, now = Date.now()): SessionRecord {
  // A fixed id that is never stored: loadShareSource finds no transcript under it.
  return newSession({ workspaceId: workspace.id, title: workspace.name, agent: "build" }, now, { id: `files-${workspace.id}` });
}

/** Reads the transcript and the stored files. `flush` first writes pending editor/terminal changes. */
export async function loadShareSource(storage: Storage, workspace: WorkspaceRecord, session: SessionRecord, flush?: () => Promise<void>): Promise<ShareSource> {
  await flush?.();
  const stored = await storage.sessions.get(session.id);
  const [messages, parts, files] = stored
    ? await Promise.all([storage.messages.list(session.id), storage.parts.listBySession(session.id), storage.files.list(workspace.id)])
    : [[], [], await storage.files.list(workspace.id)];
  return { session: stored ?? session, messages, parts, files };
}

/**
 * Encoder options for the groups the user chose to leave out (by key). `knownSecrets` (the
 * configured keys) are redacted along with the key-like strings when the transcript is redacted.
 */
export function shareOptionsFor(
  groups: readonly FindingGroup[],
  leftOut: ReadonlySet<string>,
  knownSecrets: readonly string[] = [],
): Pick<ShareEncodeOptions, "excludePaths" | "redactFindings" | "knownSecrets"> {
  const excludePaths = groups.filter((g) => g.where === "file" && leftOut.has(g.key)).map((g) => g.path!);
  const redactFindings = groups.some((g) => g.where === "transcript" && leftOut.has(g.key));
  return { excludePaths, redactFindings, knownSecrets };
}

export function scanSource(source: ShareSource, knownSecrets: readonly string[] = []): FindingGroup[] {
  return groupFindings(scanForSecrets(source, { knownSecrets }));
}
