// Several tabs may have webcode open on one database. Every write that commits here is announced to
// the other tabs (BroadcastChannel, same origin and database name), so their open workspace, lists
// and sessions follow without a reload. A tab is never told about its own writes.
import { Emitter, type Disposable } from "../base";

/** What another tab stored (after its transaction committed). */
export type StorageChange =
  | { kind: "workspaces" }
  /** File records of a workspace were written or deleted (`paths`; all of them when omitted). */
  | { kind: "files"; workspaceId: string; paths?: string[] }
  /**
   * Sessions, or their messages or parts, changed (`sessionIds`; any session when omitted);
   * `deleted` names sessions that were deleted (a tab still working in one stops and sweeps it).
   */
  | { kind: "sessions"; sessionIds?: string[]; deleted?: string[] }
  /** Settings records were written or deleted (by key). */
  | { kind: "settings"; keys: string[] };

export class TabChanges implements Disposable {
  private readonly channel: BroadcastChannel | undefined;
  private readonly emitter = new Emitter<StorageChange>();

  constructor(databaseName: string) {
    // BroadcastChannel is in every browser webcode supports (and Node); without it, tabs are on their own.
    this.channel = typeof BroadcastChannel === "function" ? new BroadcastChannel(`webcode.storage.${databaseName}`) : undefined;
    if (this.channel) this.channel.onmessage = (event: MessageEvent) => this.receive(event.data);
  }

  /** Changes committed by other tabs. */
  onDidChange(listener: (change: StorageChange) => void): Disposable {
    return this.emitter.event(listener);
  }

  /** Tells the other tabs about a committed write. */
  announce(change: StorageChange): void {
    try {
      this.channel?.postMessage(change);
    } catch {
      // A closed channel (page unloading): the other tabs catch up on their next load.
    }
  }

  /** Tells this tab's own listeners (a backup restore changed what they loaded here too). */
  notifyHere(change: StorageChange): void {
    this.emitter.fire(change);
  }

  private receive(data: unknown): void {
    const change = parseChange(data);
    if (change) this.emitter.fire(change);
  }

  dispose(): void {
    this.channel?.close();
    this.emitter.dispose();
  }
}

/** Messages come from another tab of this origin, but are still checked before use. */
function parseChange(data: unknown): StorageChange | undefined {
  if (!data || typeof data !== "object") return undefined;
  const value = data as Record<string, unknown>;
  const strings = (list: unknown): string[] | undefined =>
    Array.isArray(list) && list.every((item) => typeof item === "string") ? (list as string[]) : undefined;
  switch (value.kind) {
    case "workspaces":
      return { kind: "workspaces" };
    case "files": {
      if (typeof value.workspaceId !== "string") return undefined;
      const paths = strings(value.paths);
      return paths ? { kind: "files", workspaceId: value.workspaceId, paths } : { kind: "files", workspaceId: value.workspaceId };
    }
    case "sessions": {
      const sessionIds = strings(value.sessionIds);
      const deleted = strings(value.deleted);
      return { kind: "sessions", ...(sessionIds && { sessionIds }), ...(deleted && deleted.length > 0 && { deleted }) };
    }
    case "settings": {
      const keys = strings(value.keys);
      return keys ? { kind: "settings", keys } : undefined;
    }
    default:
      return undefined;
  }
}
