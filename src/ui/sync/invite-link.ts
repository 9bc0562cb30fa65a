// Invite links (issue 33): `…/#sync=<base64url JSON {url, room, token}>`. The fragment never
// reaches our host; whoever opens the link is asked before the page connects to the server it
// names (the join dialog). A link is untrusted input: parsed with zod, the URL must be ws:// or
// wss://, the room a workspace id, the token a room token's shape (the server checks its signature).
import { z } from "zod";
import { cleanSyncUrl } from "../../runtime";

export interface Invite {
  url: string;
  /** The workspace id: the room on the server and the id of the local workspace. */
  room: string;
  token: string;
}

export type InviteAccess = "read" | "write";

const TOKEN = /^[A-Za-z0-9_-]{1,2000}\.[A-Za-z0-9_-]{1,200}$/;
const ROOM = /^[A-Za-z0-9_-]{1,64}$/;

const inviteSchema = z.object({
  url: z.string().max(2000).refine((url) => cleanSyncUrl(url) !== "", "the server URL must be ws:// or wss://"),
  room: z.string().regex(ROOM, "not a workspace id"),
  token: z.string().regex(TOKEN, "not a room token"),
});

const FRAGMENT_KEY = "sync=";

function toBase64Url(text: string): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): string {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}

/** The link that opens `invite` on another device: this page's address with the invite in its fragment. */
export function inviteLink(pageUrl: string, invite: Invite): string {
  const url = new URL(pageUrl);
  url.hash = FRAGMENT_KEY + toBase64Url(JSON.stringify({ url: invite.url, room: invite.room, token: invite.token }));
  return url.href;
}

/** The invite in a location hash (`#sync=…`); undefined when there is none; an Error saying what is wrong with a bad one. */
export function parseInviteHash(hash: string): Invite | Error | undefined {
  const fragment = hash.replace(/^#/, "");
  if (!fragment.startsWith(FRAGMENT_KEY)) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(fromBase64Url(fragment.slice(FRAGMENT_KEY.length)));
  } catch {
    return new Error("This invite link is damaged (its contents are not readable). Ask for a new one.");
  }
  const parsed = inviteSchema.safeParse(json);
  if (!parsed.success) return new Error(`This invite link is not valid: ${parsed.error.issues.map((i) => i.message).join("; ")}.`);
  return { url: cleanSyncUrl(parsed.data.url), room: parsed.data.room, token: parsed.data.token };
}

/** The rights a token says it carries (unverified: only for telling the user; the server decides). */
export function tokenAccess(token: string): InviteAccess | undefined {
  try {
    const claims = JSON.parse(fromBase64Url(token.split(".")[0] ?? "")) as { access?: unknown };
    return claims.access === "read" || claims.access === "write" ? claims.access : undefined;
  } catch {
    return undefined;
  }
}

/** The sync server's HTTP address for its invite endpoint (ws -> http, wss -> https). */
export function inviteEndpoint(serverUrl: string): string {
  return `${serverUrl.replace(/^ws/, "http").replace(/\/+$/, "")}/invite`;
}

const inviteAnswer = z.object({ token: z.string().regex(TOKEN), room: z.string(), access: z.enum(["read", "write"]) });

/**
 * Asks the sync server (`POST /invite`, authorised by this workspace's token) for a token for the
 * same room with `access` rights; the server never grants more than the caller's token has.
 */
export async function requestInvite(options: {
  serverUrl: string;
  token: string;
  access: InviteAccess;
  fetch?: typeof fetch;
}): Promise<Invite> {
  const doFetch = options.fetch ?? fetch;
  let response: Response;
  try {
    response = await doFetch(inviteEndpoint(options.serverUrl), {
      method: "POST",
      headers: { authorization: `Bearer ${options.token}`, "content-type": "application/json" },
      body: JSON.stringify({ access: options.access }),
    });
  } catch (error) {
    throw new Error(`The sync server could not be reached for an invite (${error instanceof Error ? error.message : String(error)}). Is it running?`, { cause: error });
  }
  const body = (await response.json().catch(() => undefined)) as { error?: unknown } | undefined;
  if (!response.ok) {
    const reason = typeof body?.error === "string" ? body.error : `HTTP ${response.status}`;
    throw new Error(`The sync server refused the invite: ${reason}.`);
  }
  const parsed = inviteAnswer.safeParse(body);
  if (!parsed.success) throw new Error("The sync server's answer to the invite was not understood (an older server script?).");
  return { url: options.serverUrl, room: parsed.data.room, token: parsed.data.token };
}
