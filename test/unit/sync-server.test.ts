// The collaboration server (issue 33 step 1): `npm run sync-server` (scripts/sync-server.mjs) is
// Hocuspocus with its documents in a SQLite file (sql.js) and signed room tokens. Real server on
// 127.0.0.1, real Yjs clients (@hocuspocus/provider over `ws`): two clients converge, a read-only
// token's changes are refused by the server, a bad token is refused, a restart loses nothing.
import { afterEach, describe, expect, it } from "vitest";
import { mintInvite, signRoomToken, startSyncServer, verifyRoomToken } from "../../scripts/sync-server.mjs";
import { SYNC_SECRET as SECRET, freePort, redisServerPath, startRedis, startSyncScript, syncClient, syncToken, tempSyncDb, until } from "../support/sync-server";

const cleanups: Array<() => unknown> = [];
const onCleanup = (cleanup: () => unknown) => void cleanups.push(cleanup);
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const tempDb = () => tempSyncDb(onCleanup);
const client = (url: string, room: string, token: string) => syncClient(url, room, token, onCleanup);
const runScript = (dbFile: string) => startSyncScript({ dbFile }, onCleanup);

describe("room tokens", () => {
  it("carry the room and the rights, signed by the server secret", () => {
    const token = signRoomToken({ room: "ws-1", access: "read", secret: SECRET });
    expect(verifyRoomToken(token, "ws-1", SECRET)).toEqual({ access: "read" });
    expect(verifyRoomToken(token, "ws-2", SECRET)).toBeNull();
    expect(verifyRoomToken(token, "ws-1", "other-secret")).toBeNull();
    const [payload, signature] = token.split(".");
    const forged = Buffer.from(JSON.stringify({ room: "ws-1", access: "write", exp: null })).toString("base64url");
    expect(verifyRoomToken(`${forged}.${signature}`, "ws-1", SECRET)).toBeNull();
    expect(verifyRoomToken(`${payload}.${signature}`, "ws-1", SECRET)).not.toBeNull();
    const expired = signRoomToken({ room: "ws-1", access: "write", secret: SECRET, expiresAt: Date.now() - 1 });
    expect(verifyRoomToken(expired, "ws-1", SECRET)).toBeNull();
  });
});

describe("npm run sync-server", () => {
  it("two clients of the script converge on concurrent edits, and a restart loses nothing", async () => {
    const dbFile = tempDb();
    const first = await runScript(dbFile);
    const token = signRoomToken({ room: "ws-1", access: "write", secret: SECRET });
    const a = client(first.url, "ws-1", token);
    const b = client(first.url, "ws-1", token);
    await Promise.all([a.synced, b.synced]);
    a.doc.getText("src/main.ts").insert(0, "const a = 1;\n");
    b.doc.getText("src/main.ts").insert(0, "const b = 2;\n");
    const text = (c: typeof a) => c.doc.getText("src/main.ts").toString();
    await until(() => text(a) === text(b) && text(a).length === 26);
    expect(text(a)).toContain("const a = 1;\n");
    expect(text(a)).toContain("const b = 2;\n");
    const converged = text(a);
    // Stopped at once (SIGTERM writes the stores still waiting for their debounce), then started again.
    a.close();
    b.close();
    await first.stop();
    const second = await runScript(dbFile);
    const c = client(second.url, "ws-1", token);
    await c.synced;
    expect(c.doc.getText("src/main.ts").toString()).toBe(converged);
  }, 30_000);

  it("refuses a read-only token's changes and a token for another room", async () => {
    const server = await startSyncServer({ port: 0, dbFile: tempDb(), secret: SECRET, quiet: true });
    cleanups.push(() => server.close());
    const writer = client(server.url, "ws-1", signRoomToken({ room: "ws-1", access: "write", secret: SECRET }));
    const reader = client(server.url, "ws-1", signRoomToken({ room: "ws-1", access: "read", secret: SECRET }));
    await Promise.all([writer.synced, reader.synced]);
    writer.doc.getText("f").insert(0, "from writer");
    await until(() => reader.doc.getText("f").toString() === "from writer");
    reader.doc.getText("f").insert(0, "from reader ");
    // A later writer change arrives at the reader: the reader's own change never reached the writer.
    writer.doc.getText("g").insert(0, "later");
    await until(() => reader.doc.getText("g").toString() === "later");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(writer.doc.getText("f").toString()).toBe("from writer");
    const fresh = client(server.url, "ws-1", signRoomToken({ room: "ws-1", access: "read", secret: SECRET }));
    await fresh.synced;
    expect(fresh.doc.getText("f").toString()).toBe("from writer");

    const stranger = client(server.url, "ws-1", signRoomToken({ room: "ws-2", access: "write", secret: SECRET }));
    await until(() => stranger.failed() !== "");
    expect(stranger.doc.getText("f").toString()).toBe("");
  }, 30_000);
});

// Scale-out: two instances of the script joined by one Redis (@hocuspocus/extension-redis). Runs
// where Debian's redis-server is installed; CI (.ci/run installs it) never skips it.
const redisMissing = redisServerPath() === undefined && !process.env.CI;
describe(`npm run sync-server -- --redis${redisMissing ? " (skipped: redis-server is not installed here; apt-get install redis-server)" : ""}`, () => {
  it.skipIf(redisMissing)("two instances sharing one Redis: a change through instance 1 reaches a client of instance 2, and back", async () => {
    const redis = await startRedis(onCleanup);
    const [one, two] = await Promise.all([
      startSyncScript({ dbFile: tempDb(), redis }, onCleanup),
      startSyncScript({ dbFile: tempDb(), redis }, onCleanup),
    ]);
    expect(one.url).not.toBe(two.url);
    expect(one.output()).toContain(`Redis ${redis}`);
    const token = syncToken("ws-r");
    const a = client(one.url, "ws-r", token);
    const b = client(two.url, "ws-r", token);
    await Promise.all([a.synced, b.synced]);
    a.doc.getText("src/main.ts").insert(0, "from instance 1\n");
    await until(() => b.doc.getText("src/main.ts").toString() === "from instance 1\n", 5000, "the change at the client of instance 2");
    b.doc.getText("src/main.ts").insert(0, "from instance 2\n");
    await until(() => a.doc.getText("src/main.ts").toString() === "from instance 2\nfrom instance 1\n", 5000, "the change at the client of instance 1");
    // A client that joins instance 2 later gets the document as it is.
    const late = client(two.url, "ws-r", token);
    await late.synced;
    expect(late.doc.getText("src/main.ts").toString()).toBe("from instance 2\nfrom instance 1\n");
  });

  it("a Redis that does not answer stops the start with a message, not a server that cannot scale out", async () => {
    const closed = `redis://127.0.0.1:${await freePort()}`;
    await expect(startSyncScript({ dbFile: tempDb(), redis: closed }, onCleanup)).rejects.toThrow(/sync-server exited 1: sync-server: cannot reach Redis at 127\.0\.0\.1:\d+/);
    await expect(startSyncScript({ dbFile: tempDb(), redis: "http://x" }, onCleanup)).rejects.toThrow(/--redis needs a redis:\/\/ URL/);
  });
});

describe("POST /invite", () => {
  async function invite(url: string, token: string | undefined, body: unknown) {
    const response = await fetch(`${url.replace(/^ws/, "http")}/invite`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    return { status: response.status, cors: response.headers.get("access-control-allow-origin"), body: (await response.json()) as Record<string, unknown> };
  }

  it("mints a token for the caller's room with no more rights, which the server then enforces", async () => {
    const server = await startSyncServer({ port: 0, dbFile: tempDb(), secret: SECRET, quiet: true });
    cleanups.push(() => server.close());
    const write = signRoomToken({ room: "ws-1", access: "write", secret: SECRET });
    const preflight = await fetch(`${server.url.replace(/^ws/, "http")}/invite`, { method: "OPTIONS" });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-headers")).toContain("authorization");

    const readInvite = await invite(server.url, write, { access: "read" });
    expect(readInvite.status).toBe(200);
    expect(readInvite.cors).toBe("*");
    expect(readInvite.body).toMatchObject({ room: "ws-1", access: "read" });
    const readToken = String(readInvite.body.token);
    expect(verifyRoomToken(readToken, "ws-1", SECRET)).toEqual({ access: "read" });
    // A read token cannot mint write, nor can no token or a forged one.
    expect((await invite(server.url, readToken, { access: "write" })).status).toBe(403);
    expect((await invite(server.url, readToken, { access: "read" })).status).toBe(200);
    expect((await invite(server.url, undefined, { access: "read" })).status).toBe(401);
    expect((await invite(server.url, `${readToken.split(".")[0]}.x`, { access: "read" })).status).toBe(401);
    expect((await invite(server.url, write, { access: "admin" })).status).toBe(400);

    // The invited read-only peer syncs, and the server drops its changes.
    const writer = client(server.url, "ws-1", write);
    const reader = client(server.url, "ws-1", readToken);
    await Promise.all([writer.synced, reader.synced]);
    writer.doc.getText("f").insert(0, "from writer");
    await until(() => reader.doc.getText("f").toString() === "from writer");
    reader.doc.getText("f").insert(0, "from reader ");
    writer.doc.getText("g").insert(0, "later");
    await until(() => reader.doc.getText("g").toString() === "later");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(writer.doc.getText("f").toString()).toBe("from writer");
  }, 30_000);

  it("never outlives the caller's token", () => {
    const now = 1_000_000;
    const caller = signRoomToken({ room: "r", access: "write", secret: SECRET, expiresAt: now + 3_600_000 });
    const answer = mintInvite({ authorization: `Bearer ${caller}`, body: JSON.stringify({ access: "write", days: 30 }), secret: SECRET, now });
    expect(answer.status).toBe(200);
    expect(answer.body.exp).toBe(now + 3_600_000);
    const open = signRoomToken({ room: "r", access: "write", secret: SECRET });
    expect(mintInvite({ authorization: `Bearer ${open}`, body: "{}", secret: SECRET, now }).status).toBe(400);
    expect(mintInvite({ authorization: `Bearer ${open}`, body: JSON.stringify({ access: "read" }), secret: SECRET, now }).body.exp).toBe(now + 7 * 86_400_000);
    expect(mintInvite({ authorization: `Bearer ${open}`, body: JSON.stringify({ access: "read", days: 1000 }), secret: SECRET, now }).status).toBe(400);
  });
});
