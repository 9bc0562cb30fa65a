// Invite links (issue 33): the link format round-trips; a hostile or damaged link is refused with a
// reason; opening a link asks before anything connects, then stores the server and token for that
// workspace only and opens (or creates) the workspace with the room's id. requestInvite against the
// real server script mints a token with the asked rights and reports a refusal.
import { describe, expect, it } from "vitest";
import { signRoomToken, startSyncServer } from "../../scripts/sync-server.mjs";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_RUNTIME_SETTINGS, type RuntimeSettings } from "../../src/runtime";
import type { DialogRequest } from "../../src/ui/common/dialogs";
import { inviteEndpoint, inviteLink, parseInviteHash, requestInvite, tokenAccess } from "../../src/ui/sync/invite-link";
import { joinInvite } from "../../src/ui/sync/join-invite";

const SECRET = "invite-secret";
const token = (access: "read" | "write", room = "ws_abc123") => signRoomToken({ room, access, secret: SECRET });
const hashOf = (json: unknown) => `#sync=${Buffer.from(JSON.stringify(json)).toString("base64url")}`;

describe("invite links", () => {
  it("round-trip through the fragment, which never reaches the page's host", () => {
    const invite = { url: "wss://sync.example.com", room: "ws_abc123", token: token("read") };
    const link = inviteLink("https://webcode.example/app/?x=1#old", invite);
    const url = new URL(link);
    expect(`${url.origin}${url.pathname}${url.search}`).toBe("https://webcode.example/app/?x=1");
    expect(parseInviteHash(url.hash)).toEqual(invite);
    expect(tokenAccess(invite.token)).toBe("read");
    expect(parseInviteHash("#share=abc")).toBeUndefined();
    expect(inviteEndpoint("wss://sync.example.com/")).toBe("https://sync.example.com/invite");
    expect(inviteEndpoint("ws://127.0.0.1:1234")).toBe("http://127.0.0.1:1234/invite");
  });

  it("refuse a server that is not ws:// or wss://, a room that is not an id, a token of the wrong shape, or garbage", () => {
    const good = { url: "wss://s.example", room: "ws_1", token: token("write", "ws_1") };
    for (const bad of [
      { ...good, url: "https://s.example" },
      { ...good, url: "javascript:alert(1)" },
      { ...good, room: "../etc" },
      { ...good, room: "" },
      { ...good, token: "no-dot" },
      { ...good, token: 'x".y' },
      { url: good.url, room: good.room },
    ]) {
      expect(parseInviteHash(hashOf(bad)), JSON.stringify(bad)).toBeInstanceOf(Error);
    }
    expect((parseInviteHash("#sync=%%%") as Error).message).toMatch(/damaged/);
    expect(parseInviteHash(hashOf(good))).toEqual(good);
  });
});

function fakeRuntime(initial: Partial<RuntimeSettings> = {}) {
  let settings: RuntimeSettings = { ...DEFAULT_RUNTIME_SETTINGS, ...initial };
  return {
    get settings() {
      return settings;
    },
    update: async (change: Partial<RuntimeSettings>) => void (settings = { ...settings, ...change }),
  };
}

describe("joining from a link", () => {
  it("asks first (naming workspace, server and rights), then stores the room for that workspace only and opens it", async () => {
    const runtime = fakeRuntime({ syncServerUrl: "wss://mine.example", syncAccessToken: "mine.tok", syncWorkspaces: ["ws_other"] });
    const asked: DialogRequest[] = [];
    const opened: string[] = [];
    let cleared = 0;
    const invite = { url: "ws://127.0.0.1:9999", room: "ws_abc123", token: token("read") };
    const joined = await joinInvite({
      hash: new URL(inviteLink("http://127.0.0.1:5173/", invite)).hash,
      clearHash: () => cleared++,
      dialogs: { ask: async (request) => (asked.push(request), "join") },
      runtime,
      workspaces: { openOrCreate: async (id) => void opened.push(id) },
      error: (error) => {
        throw error;
      },
    });
    expect(joined).toBe(true);
    expect(cleared).toBe(1);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ kind: "choice", title: "Join a shared workspace?" });
    expect(asked[0]!.kind === "choice" && asked[0]!.message).toContain("Join workspace ws_abc123 on server ws://127.0.0.1:9999 as read-only?");
    expect(runtime.settings.syncRooms).toEqual({ ws_abc123: { url: "ws://127.0.0.1:9999", accessToken: invite.token } });
    expect(runtime.settings.syncWorkspaces).toEqual(["ws_other", "ws_abc123"]);
    // The global server and token are untouched.
    expect(runtime.settings).toMatchObject({ syncServerUrl: "wss://mine.example", syncAccessToken: "mine.tok" });
    expect(opened).toEqual(["ws_abc123"]);
  });

  it("cancelled: nothing is stored or opened; a bad link is reported and nothing is asked", async () => {
    const runtime = fakeRuntime();
    const opened: string[] = [];
    const errors: string[] = [];
    const base = {
      clearHash: () => {},
      runtime,
      workspaces: { openOrCreate: async (id: string) => void opened.push(id) },
      error: (error: unknown) => void errors.push(String(error)),
    };
    const hash = new URL(inviteLink("http://h/", { url: "wss://s", room: "ws_1", token: token("write", "ws_1") })).hash;
    expect(await joinInvite({ ...base, hash, dialogs: { ask: async () => "cancel" } })).toBe(false);
    let asked = 0;
    expect(await joinInvite({ ...base, hash: hashOf({ url: "http://evil", room: "ws_1", token: "a.b" }), dialogs: { ask: async () => (asked++, "join") } })).toBe(false);
    expect(asked).toBe(0);
    expect(errors[0]).toMatch(/not valid.*ws:\/\/ or wss:\/\//);
    expect(runtime.settings.syncRooms).toEqual({});
    expect(runtime.settings.syncWorkspaces).toEqual([]);
    expect(opened).toEqual([]);
  });
});

describe("requestInvite against the server script", () => {
  it("gets a token with the asked rights, and says why when the server refuses", async () => {
    const dir = mkdtempSync(join(tmpdir(), "webcode-invite-"));
    const server = await startSyncServer({ port: 0, dbFile: join(dir, "s.sqlite"), secret: SECRET, quiet: true });
    try {
      const read = await requestInvite({ serverUrl: server.url, token: token("write"), access: "read" });
      expect(read).toMatchObject({ url: server.url, room: "ws_abc123" });
      expect(tokenAccess(read.token)).toBe("read");
      await expect(requestInvite({ serverUrl: server.url, token: read.token, access: "write" })).rejects.toThrow(/refused the invite: a read-only token cannot invite with write access/);
      await expect(requestInvite({ serverUrl: "ws://127.0.0.1:9", token: read.token, access: "read" })).rejects.toThrow(/could not be reached/);
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
