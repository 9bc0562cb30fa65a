// Opening a share (a `#share=` link, a pasted link, or a .webcode file) as a new read-only
// workspace and session, and "Continue", which forks it into an editable one. Decoding is strict:
// an invalid or tampered share throws a ShareError before anything is written.
import { UserFacingError, revealInvisibleChars } from "../../base";
import type { Storage } from "../../storage";
import { tellUser } from "../transfer";
import { continueSharedSession, decodeShareInWorker, openShare, type OpenedShare, type RestoredShare } from "../../transfer";

export interface ShareContext {
  storage: Storage;
  workspaces: { refresh(): Promise<void>; switchTo(id: string): Promise<void> };
  notifications: { info(message: string): unknown };
  /** Settles unsaved editor changes before switching; false stays in the current workspace. */
  beforeLeave?(): Promise<boolean>;
}

/** Opens an already decoded share (`openedFrom`: "link" or a file name) and switches to it. */
export async function openRestored(context: ShareContext, restored: RestoredShare, openedFrom: string): Promise<OpenedShare> {
  const opened = await openShare(context.storage, restored, { openedFrom });
  await context.workspaces.refresh();
  const dropped = opened.droppedParts > 0 ? ` ${opened.droppedParts} part${opened.droppedParts === 1 ? "" : "s"} this version cannot show ${opened.droppedParts === 1 ? "was" : "were"} left out.` : "";
  const message = `Opened the shared session "${revealInvisibleChars(opened.session.title)}" read-only. Nothing runs until you press Continue.${dropped}`;
  if (context.beforeLeave && !(await context.beforeLeave())) {
    tellUser(context.notifications, `${message} It is in the workspace list as "${revealInvisibleChars(opened.workspace.name)}".`);
    return opened;
  }
  await context.workspaces.switchTo(opened.workspace.id);
  tellUser(context.notifications, message);
  return opened;
}

/** Opens a link (a full URL, `#share=v1.…`, or `v1.…`). */
export async function openShareLink(context: ShareContext, link: string): Promise<OpenedShare> {
  // Decoded off the main thread: a big share must not freeze the page.
  return openRestored(context, await decodeShareInWorker({ type: "share-link", link }), "link");
}

/** The part of File used to open a .webcode file. */
export interface ShareFileLike {
  name: string;
  arrayBuffer(): Promise<ArrayBuffer>;
}

export async function openShareFileBytes(context: ShareContext, file: ShareFileLike): Promise<OpenedShare> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  return openRestored(context, await decodeShareInWorker({ type: "share-file", bytes }), file.name.slice(0, 200));
}

/** The read-only shared session of a workspace opened from a share. */
export async function sharedSessionOf(storage: Storage, workspaceId: string) {
  const sessions = await storage.sessions.list(workspaceId);
  return sessions.find((s) => s.share?.readOnly && !s.parentId) ?? sessions.find((s) => !s.parentId);
}

/** "Continue": copies the shared workspace and session into editable ones and switches to them. */
export async function continueShared(context: ShareContext, workspaceId: string): Promise<void> {
  const shared = await sharedSessionOf(context.storage, workspaceId);
  if (!shared) throw new UserFacingError("This shared workspace has no session to continue. Open the link again.", "share-missing");
  const { workspace, session } = await continueSharedSession(context.storage, shared.id);
  await context.workspaces.refresh();
  if (context.beforeLeave && !(await context.beforeLeave())) {
    tellUser(context.notifications, `"${revealInvisibleChars(session.title)}" can now be continued in the workspace "${revealInvisibleChars(workspace.name)}".`);
    return;
  }
  await context.workspaces.switchTo(workspace.id);
  tellUser(context.notifications, `You can now continue "${revealInvisibleChars(session.title)}" in the workspace "${revealInvisibleChars(workspace.name)}". The shared original stays read-only.`);
}
