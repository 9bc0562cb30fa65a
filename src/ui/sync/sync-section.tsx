// Settings → Sync (issue 33): the sync server's URL and room token (kept like provider keys: only
// in this browser's storage for this site, never exported, shared or backed up), and per workspace
// "Sync this workspace". Shows the command that makes a token for this workspace's room.
import { useId, useState } from "react";
import { useStore } from "zustand";
import { cleanSyncUrl, MAX_SYNC_NAME, syncCredentials } from "../../runtime";
import { inviteLink, requestInvite, type InviteAccess } from "./invite-link";
import type { RuntimeSettingsStore } from "../settings/runtime-settings-store";
import type { HeldChange } from "../../storage";
import type { ChoiceRequest, Dialogs } from "../common";
import type { SyncController, SyncState } from "./sync-controller";
import { TokenRow } from "../settings/token-row";
import { UrlRow } from "../settings/url-row";

export const SYNC_STATE_LABELS: Record<SyncState, string> = {
  off: "Off",
  connecting: "Connecting…",
  connected: "Connected",
  offline: "Offline: changes are kept here and sent on reconnect",
  error: "Error",
};

export function tokenCommand(workspaceId: string): string {
  return `npm run sync-server -- token --room ${workspaceId} --access write`;
}

export interface SyncSectionProps {
  runtime: RuntimeSettingsStore;
  controller: SyncController;
  workspaceId: string;
  onProblem(action: () => Promise<void>): void;
  copyText?: (text: string) => Promise<void>;
  /** The page address an invite link opens (default: this page's). */
  pageUrl?: string;
  /** For `POST /invite` (default: the page's fetch). */
  fetch?: typeof fetch;
}

export function SyncSection({ runtime, controller, workspaceId, onProblem, copyText, pageUrl, fetch: fetchImpl }: SyncSectionProps) {
  const settings = useStore(runtime.store);
  const view = useStore(controller.view);
  const baseId = useId();
  const [copied, setCopied] = useState(false);
  const [nameDraft, setNameDraft] = useState<string | undefined>(undefined);
  const [invite, setInvite] = useState<{ access: InviteAccess; link: string } | undefined>(undefined);
  const copy = copyText ?? ((text: string) => navigator.clipboard.writeText(text));
  const room = settings.syncRooms[workspaceId];
  const credentials = syncCredentials(settings, workspaceId);
  const on = settings.syncWorkspaces.includes(workspaceId);
  const configured = credentials.url !== "" && credentials.accessToken !== "";
  const makeInvite = (access: InviteAccess) =>
    onProblem(async () => {
      const made = await requestInvite({ serverUrl: credentials.url, token: credentials.accessToken, access, ...(fetchImpl && { fetch: fetchImpl }) });
      const link = inviteLink(pageUrl ?? location.href, made);
      setInvite({ access, link });
      await copy(link);
    });
  const command = tokenCommand(workspaceId);
  return (
    <section className="settings-section" aria-labelledby={`${baseId}-title`}>
      <h3 id={`${baseId}-title`}>Sync</h3>
      <p className="form-hint">
        Syncs this workspace's files and chat sessions with your own sync server (<code>npm run sync-server</code>, see the README), so other devices and
        collaborators with a token for this workspace see the same files (binary files up to 5 MB; a synced change to a file that sets permissions, agents or
        MCP servers waits for you) and follow the agent's turns live (a turn runs on one device at a time; provider keys and permission grants are never
        synced). The server sees everything it relays: there is no end-to-end encryption.
        Without a server nothing connects. The URL and token are kept only in this browser's storage for this site; never exported or shared.
      </p>
      <UrlRow
        id={`${baseId}-url`}
        label="Sync server URL"
        placeholder="None: sync is off"
        saved={settings.syncServerUrl}
        clean={cleanSyncUrl}
        invalid="Enter a ws:// or wss:// URL, such as wss://sync.example.com."
        setLabel="Set sync server URL"
        save={(url) => runtime.update({ syncServerUrl: url })}
        run={onProblem}
      />
      <TokenRow
        id={`${baseId}-token`}
        label="Sync token"
        saved={settings.syncAccessToken}
        setLabel="Set sync token"
        removeLabel="Remove sync token"
        save={(token) => runtime.update({ syncAccessToken: token })}
        run={onProblem}
      >
        <p className="form-hint">
          A token is for one workspace (its room is the workspace id). Run this where the server runs, with its SYNC_SECRET set:{" "}
          <code id={`${baseId}-command`}>{command}</code>{" "}
          <button
            type="button"
            className="button"
            aria-describedby={`${baseId}-command`}
            onClick={() =>
              onProblem(async () => {
                await copy(command);
                setCopied(true);
              })
            }
          >
            {copied ? "Copied" : "Copy token command"}
          </button>
        </p>
      </TokenRow>
      <div className="form-row">
        <div className="form-row-inline">
          <input
            id={`${baseId}-on`}
            type="checkbox"
            role="switch"
            checked={on}
            disabled={!configured && !on}
            onChange={(event) =>
              onProblem(() =>
                runtime.update({
                  syncWorkspaces: event.target.checked ? [...settings.syncWorkspaces, workspaceId] : settings.syncWorkspaces.filter((id) => id !== workspaceId),
                }),
              )
            }
          />
          <label htmlFor={`${baseId}-on`}>Sync this workspace</label>
        </div>
        {!configured && <p className="form-hint">Set a server URL and a token first.</p>}
      </div>
      {room && (
        <p className="form-hint">
          This workspace syncs with <code>{room.url}</code> and the token of the invite you accepted (not the server and token above).{" "}
          <button
            type="button"
            className="button"
            onClick={() =>
              onProblem(() => {
                const { [workspaceId]: _dropped, ...rest } = settings.syncRooms;
                return runtime.update({ syncRooms: rest, syncWorkspaces: settings.syncWorkspaces.filter((id) => id !== workspaceId) });
              })
            }
          >
            Leave the shared workspace
          </button>
        </p>
      )}
      <div className="form-row">
        <label htmlFor={`${baseId}-name`} className="form-label">
          Your name for others
        </label>
        <div className="form-row-inline">
          <input
            id={`${baseId}-name`}
            className="text-input"
            maxLength={MAX_SYNC_NAME}
            placeholder="Guest and a number"
            value={nameDraft ?? settings.syncDisplayName}
            onChange={(event) => setNameDraft(event.target.value)}
          />
          <button
            type="button"
            className="button"
            disabled={nameDraft === undefined}
            onClick={() =>
              onProblem(async () => {
                await runtime.update({ syncDisplayName: (nameDraft ?? "").trim().slice(0, MAX_SYNC_NAME) });
                setNameDraft(undefined);
              })
            }
          >
            Set name
          </button>
        </div>
        <p className="form-hint">Shown beside your cursor and on the files you have open, to people in the same synced workspace.</p>
      </div>
      {on && configured && (
        <div className="form-row">
          <span className="form-label">Invite</span>
          <div className="form-row-inline">
            <button type="button" className="button" onClick={() => makeInvite("read")}>
              Copy read-only invite link
            </button>
            <button type="button" className="button" disabled={view.access === "read"} onClick={() => makeInvite("write")}>
              Copy read-write invite link
            </button>
          </div>
          <p className="form-hint">
            The link carries the server's address and a new token for this workspace (valid 7 days, never more rights than yours). Anyone with the link can join
            with those rights: send it privately.
          </p>
          {invite && (
            <p className="form-hint" role="status">
              Copied the {invite.access === "read" ? "read-only" : "read-write"} invite link:{" "}
              <input className="text-input" readOnly aria-label="Invite link" value={invite.link} onFocus={(event) => event.target.select()} />
            </p>
          )}
        </div>
      )}
      <p className="form-hint" role="status" aria-label="Sync status">
        Status: {SYNC_STATE_LABELS[view.state]}
        {view.state === "connected" && view.access === "read" ? " (read-only: the server refuses changes from here)" : ""}
        {view.detail ? `: ${view.detail}` : ""}
      </p>
    </section>
  );
}

/** The top bar's indicator while this workspace syncs; nothing when sync is off. */
export function SyncIndicator({ controller }: { controller: SyncController }) {
  const view = useStore(controller.view);
  const held = useStore(controller.held, (s) => s.items.length);
  if (view.state === "off") return null;
  const readOnly = view.state === "connected" && view.access === "read";
  const label = `Sync: ${SYNC_STATE_LABELS[view.state]}${readOnly ? " (read-only)" : ""}${view.detail ? `: ${view.detail}` : ""}`;
  return (
    <>
      <span className={`sync-indicator sync-${view.state}`} role="status" aria-label={label} title={label}>
        {view.state === "connected" ? (readOnly ? "● Synced, read-only" : "● Synced") : view.state === "error" ? "● Sync error" : view.state === "offline" ? "○ Offline" : "○ Syncing…"}
      </span>
      {held > 0 && (
        <button type="button" className="button sync-held" onClick={() => void controller.review(true)}>
          {`Review ${held} synced ${held === 1 ? "change" : "changes"}`}
        </button>
      )}
    </>
  );
}

/** The question for a held remote change (asked through the app's dialogs). */
export function heldChangeQuestion(change: HeldChange): ChoiceRequest {
  const what = change.change === "deleted" ? "deleted" : "changed";
  return {
    kind: "choice",
    title: `Synced change to ${change.path}`,
    message:
      `Another device ${what} ${change.path}. This file sets what the agent may do (permission rules, agents or MCP servers), so a synced change waits for you. ` +
      `Accept takes the other device's version; Keep mine keeps yours and sends it to the other devices.`,
    buttons: [
      { id: "later", label: "Decide later" },
      { id: "keep", label: "Keep mine" },
      // "danger": the dialog starts on "Decide later", so Enter never loosens anything.
      { id: "accept", label: change.change === "deleted" ? "Accept the delete" : "Accept", danger: true },
    ],
    cancelId: "later",
  };
}

/** SyncBinding.ask through the app's dialogs (Escape is "Decide later"). */
export function askHeldChange(dialogs: Dialogs): (change: HeldChange) => Promise<"accept" | "keep" | "later"> {
  return async (change) => {
    const answer = await dialogs.ask(heldChangeQuestion(change));
    return answer === "accept" || answer === "keep" ? answer : "later";
  };
}
