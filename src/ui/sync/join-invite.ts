// Opening an invite link (issue 33): the page was loaded with `#sync=…`. Nothing connects until
// the user says yes in an accessible dialog that names the workspace, the server and the rights;
// then the server URL and token are stored for that workspace only (Settings' `syncRooms`), the
// workspace is created here under the room's id if it is new, opened, and syncs.
import type { Dialogs } from "../common/dialogs";
import type { RuntimeSettingsStore } from "../settings/runtime-settings-store";
import { parseInviteHash, tokenAccess } from "./invite-link";

export interface JoinInviteDeps {
  hash: string;
  /** Removes the invite from the address bar (it holds a token). */
  clearHash(): void;
  dialogs: Pick<Dialogs, "ask">;
  runtime: Pick<RuntimeSettingsStore, "update" | "settings">;
  workspaces: { openOrCreate(id: string, name: string): Promise<unknown> };
  error(error: unknown, context: string): void;
}

/** Handles an invite in `hash`, if any; resolves with whether a workspace was joined. */
export async function joinInvite(deps: JoinInviteDeps): Promise<boolean> {
  const invite = parseInviteHash(deps.hash);
  if (invite === undefined) return false;
  deps.clearHash();
  if (invite instanceof Error) {
    deps.error(invite, "Invite link");
    return false;
  }
  const access = tokenAccess(invite.token);
  const rights = access === "read" ? "read-only" : access === "write" ? "read-write" : "with the rights its token carries";
  const answer = await deps.dialogs.ask({
    kind: "choice",
    title: "Join a shared workspace?",
    message:
      `Join workspace ${invite.room} on server ${invite.url} as ${rights}? ` +
      "This page will connect to that server and keep the workspace's files in sync with it; whoever runs the server can read them. Join only if you trust who sent the link.",
    buttons: [
      { id: "cancel", label: "Cancel" },
      { id: "join", label: "Join", primary: true },
    ],
    cancelId: "cancel",
  });
  if (answer !== "join") return false;
  const settings = deps.runtime.settings;
  await deps.runtime.update({
    syncRooms: { ...settings.syncRooms, [invite.room]: { url: invite.url, accessToken: invite.token } },
    syncWorkspaces: settings.syncWorkspaces.includes(invite.room) ? settings.syncWorkspaces : [...settings.syncWorkspaces, invite.room],
  });
  await deps.workspaces.openOrCreate(invite.room, "Shared workspace");
  return true;
}
