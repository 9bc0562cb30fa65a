// The collaboration server for webcode's sync (issue 33): Hocuspocus (Yjs) with its documents kept
// in a SQLite database file on this machine. Plain JavaScript so that `npm run sync-server` needs no
// TypeScript step.
//
//   npm run sync-server -- [--port 1234] [--host 127.0.0.1] [--db sync.sqlite]   (secret: SYNC_SECRET)
//   npm run sync-server -- token --room ROOM --access read|write [--days 30]     (prints a room token)
//   npm run sync-server -- --redis redis://127.0.0.1:6379 ...   (or SYNC_REDIS_URL: several instances, one Redis)
//
// Invites (issue 33): `POST /invite` with `Authorization: Bearer <room token>` and a JSON body
// `{"access": "read"|"write", "days"?: n}` answers `{room, access, token, exp}`: a token for the
// caller's room with rights no greater than the caller's (a read token mints only read tokens) and
// an expiry no later than the caller's. The page has no secret, so this is how its Invite button
// gets a token to put in a link.
//
// Persistence: @hocuspocus/extension-sqlite depends on the native `sqlite3` package, whose install
// downloads a prebuilt binary from outside the npm registry (fails where only the registry is
// reachable), and Node 20 has no `node:sqlite`. So the documents go through
// @hocuspocus/extension-database into sql.js (SQLite compiled to wasm, installed from npm alone),
// and the database is written to the file (a temporary file, then renamed) after every store.
import { createHmac, timingSafeEqual } from "node:crypto";
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { Server } from "@hocuspocus/server";
import { Database } from "@hocuspocus/extension-database";
import { Redis } from "@hocuspocus/extension-redis";
import initSqlJs from "sql.js";

const ACCESS = new Set(["read", "write"]);

const b64url = (buf) => Buffer.from(buf).toString("base64url");

/** A room token: `payload.signature`, the payload {room, access, exp} signed with HMAC-SHA-256. */
export function signRoomToken({ room, access, secret, expiresAt }) {
  if (!ACCESS.has(access)) throw new Error(`access must be read or write, not ${String(access)}`);
  if (!secret) throw new Error("a server secret is needed to sign a token");
  const payload = b64url(JSON.stringify({ room, access, exp: expiresAt ?? null }));
  const signature = b64url(createHmac("sha256", secret).update(payload).digest());
  return `${payload}.${signature}`;
}

/** The token's rights for `room`, or null when it is not signed by `secret`, expired or for another room. */
export function verifyRoomToken(token, room, secret, now = Date.now()) {
  if (typeof token !== "string") return null;
  const [payload, signature, extra] = token.split(".");
  if (!payload || !signature || extra !== undefined) return null;
  const expected = createHmac("sha256", secret).update(payload).digest();
  const given = Buffer.from(signature, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let claims;
  try {
    claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  if (!claims || claims.room !== room || !ACCESS.has(claims.access)) return null;
  if (claims.exp !== null && !(typeof claims.exp === "number" && claims.exp > now)) return null;
  return { access: claims.access };
}

/** Default and longest life of an invited token. */
const INVITE_DAYS = 7;
const MAX_INVITE_DAYS = 90;

/** The room named in a token's payload (not yet verified: verifyRoomToken checks it). */
function roomOfToken(token) {
  try {
    const claims = JSON.parse(Buffer.from(String(token).split(".")[0] ?? "", "base64url").toString("utf8"));
    return typeof claims?.room === "string" ? claims.room : null;
  } catch {
    return null;
  }
}

/**
 * `POST /invite`: a new token for the caller's room. Rights never grow: the caller's access bounds
 * the new token's, and the caller's expiry bounds the new one's. Answers with an HTTP status and a
 * JSON body; the page calls it cross-origin with a bearer token (no cookies), so any origin may.
 */
export function mintInvite({ authorization, body, secret, now = Date.now() }) {
  const token = /^Bearer (\S+)$/.exec(authorization ?? "")?.[1];
  const room = token ? roomOfToken(token) : null;
  const rights = room === null ? null : verifyRoomToken(token, room, secret, now);
  if (!rights) return { status: 401, body: { error: "a valid room token is needed (Authorization: Bearer <token>)" } };
  let request;
  try {
    request = JSON.parse(body || "{}");
  } catch {
    return { status: 400, body: { error: "the body must be JSON {access, days?}" } };
  }
  const access = request?.access;
  if (!ACCESS.has(access)) return { status: 400, body: { error: "access must be read or write" } };
  if (access === "write" && rights.access !== "write") return { status: 403, body: { error: "a read-only token cannot invite with write access" } };
  const days = request.days === undefined ? INVITE_DAYS : request.days;
  if (!(typeof days === "number" && days > 0 && days <= MAX_INVITE_DAYS)) {
    return { status: 400, body: { error: `days must be a number above 0 and at most ${MAX_INVITE_DAYS}` } };
  }
  const callerExp = JSON.parse(Buffer.from(token.split(".")[0], "base64url").toString("utf8")).exp;
  const exp = Math.min(now + days * 86_400_000, callerExp ?? Infinity);
  return { status: 200, body: { room, access, exp, token: signRoomToken({ room, access, secret, expiresAt: exp }) } };
}

const CORS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "POST, OPTIONS",
  "Access-Control-Allow-Headers": "authorization, content-type",
  "Access-Control-Max-Age": "600",
};

async function handleRequest(request, response, secret) {
  const path = new URL(request.url ?? "/", "http://localhost").pathname;
  if (path !== "/invite") return false;
  if (request.method === "OPTIONS") {
    response.writeHead(204, CORS).end();
    return true;
  }
  if (request.method !== "POST") {
    response.writeHead(405, { ...CORS, Allow: "POST, OPTIONS" }).end();
    return true;
  }
  let body = "";
  for await (const chunk of request) {
    body += chunk;
    if (body.length > 10_000) break;
  }
  const answer = mintInvite({ authorization: request.headers.authorization, body, secret });
  response.writeHead(answer.status, { ...CORS, "Content-Type": "application/json" }).end(JSON.stringify(answer.body));
  return true;
}

/** The SQLite database (sql.js) in `file`: fetch and store of a document's Yjs state. */
export async function openSqliteStore(file) {
  const SQL = await initSqlJs();
  const db = existsSync(file) ? new SQL.Database(readFileSync(file)) : new SQL.Database();
  db.run("CREATE TABLE IF NOT EXISTS documents (name TEXT PRIMARY KEY, data BLOB NOT NULL)");
  const save = () => {
    const tmp = `${file}.tmp`;
    writeFileSync(tmp, db.export());
    renameSync(tmp, file);
  };
  save();
  return {
    fetch(name) {
      const statement = db.prepare("SELECT data FROM documents WHERE name = ?");
      try {
        statement.bind([name]);
        return statement.step() ? statement.get()[0] : null;
      } finally {
        statement.free();
      }
    },
    store(name, state) {
      db.run("INSERT INTO documents (name, data) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET data = excluded.data", [
        name,
        new Uint8Array(state),
      ]);
      save();
    },
    close() {
      db.close();
    },
  };
}

/**
 * Scale-out (`--redis`): @hocuspocus/extension-redis relays every document's updates and awareness
 * between the instances that share one Redis, so clients of different instances edit together, and
 * its lock lets one instance at a time store a document. Each instance still keeps its own database
 * file (sql.js holds the whole database in one process), so see the README on what that means.
 */
async function connectRedis(redisUrl) {
  let url;
  try {
    url = new URL(redisUrl);
  } catch {
    throw new Error(`sync-server: --redis needs a redis:// URL, not ${redisUrl}`);
  }
  if (url.protocol !== "redis:") throw new Error(`sync-server: --redis needs a redis:// URL, not ${redisUrl}`);
  const db = url.pathname.length > 1 ? Number(url.pathname.slice(1)) : 0;
  if (!Number.isInteger(db) || db < 0) throw new Error(`sync-server: the Redis database in ${redisUrl} must be a number`);
  const redis = new Redis({
    host: url.hostname,
    port: url.port ? Number(url.port) : 6379,
    options: {
      db,
      ...(url.username && { username: decodeURIComponent(url.username) }),
      ...(url.password && { password: decodeURIComponent(url.password) }),
      // Fail the start, not hang, when Redis is not there.
      maxRetriesPerRequest: 2,
    },
  });
  const where = `${url.hostname}:${url.port || 6379}`;
  let ready = false;
  // One line per outage instead of ioredis's unhandled-error line on every retry.
  for (const client of [redis.pub, redis.sub]) {
    let down = false;
    client.on("error", (error) => {
      if (!down && ready) console.error(`sync-server: lost Redis at ${where} (${error.message}); retrying`);
      down = true;
    });
    client.on("ready", () => (down = false));
  }
  let timer;
  try {
    await Promise.race([
      redis.pub.ping(),
      new Promise((_, reject) => (timer = setTimeout(() => reject(new Error("no answer within 5 s")), 5000))),
    ]);
  } catch (error) {
    redis.pub.disconnect();
    redis.sub.disconnect();
    throw new Error(`sync-server: cannot reach Redis at ${where} (${error instanceof Error ? error.message : String(error)}); start redis-server or fix --redis`);
  } finally {
    clearTimeout(timer);
  }
  ready = true;
  return redis;
}

/** Starts the server; resolves once it listens. `port` 0 takes a free one (see `.port`). */
export async function startSyncServer({ port = 1234, host = "127.0.0.1", dbFile, secret, quiet = false, redisUrl }) {
  if (!secret) throw new Error("sync-server: set SYNC_SECRET (the secret that signs room tokens)");
  if (!dbFile) throw new Error("sync-server: a database file is needed (--db)");
  const redis = redisUrl ? await connectRedis(redisUrl) : undefined;
  const store = await openSqliteStore(dbFile);
  const server = new Server({
    port,
    address: host,
    quiet,
    stopOnSignals: false,
    // Changes are stored at most this long after they arrive (a restart loses nothing stored).
    debounce: 200,
    maxDebounce: 1000,
    async onAuthenticate({ token, documentName, connectionConfig }) {
      const rights = verifyRoomToken(token, documentName, secret);
      if (!rights) throw new Error("not authorized");
      // The server refuses a read-only connection's changes.
      if (rights.access === "read") connectionConfig.readOnly = true;
      return { access: rights.access };
    },
    async onRequest({ request, response }) {
      // Hocuspocus answers every other request itself; a rejection with null tells it this one is answered.
      if (await handleRequest(request, response, secret)) throw null;
    },
    extensions: [
      ...(redis ? [redis] : []),
      new Database({
        fetch: async ({ documentName }) => store.fetch(documentName),
        store: async ({ documentName, state }) => store.store(documentName, state),
      }),
    ],
  });
  await server.listen();
  return {
    port: server.address.port,
    url: `ws://${host}:${server.address.port}`,
    async close() {
      await server.destroy();
      store.close();
    },
  };
}

function parseArgs(argv, known) {
  const options = {};
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i].replace(/^--/, "");
    if (!argv[i].startsWith("--") || !known.includes(name)) throw new Error(`sync-server: unknown option ${argv[i]}`);
    const value = argv[++i];
    if (value === undefined) throw new Error(`sync-server: --${name} needs a value`);
    options[name] = value;
  }
  return options;
}

async function main(argv) {
  const secret = process.env.SYNC_SECRET ?? "";
  if (argv[0] === "token") {
    const o = parseArgs(argv.slice(1), ["room", "access", "days"]);
    if (!o.room) throw new Error("sync-server token: --room is needed");
    const days = o.days === undefined ? null : Number(o.days);
    if (days !== null && !(days > 0)) throw new Error("sync-server token: --days must be a positive number");
    const expiresAt = days === null ? undefined : Date.now() + days * 86_400_000;
    console.log(signRoomToken({ room: o.room, access: o.access ?? "write", secret, expiresAt }));
    return;
  }
  const o = parseArgs(argv, ["port", "host", "db", "redis"]);
  const redisUrl = o.redis ?? process.env.SYNC_REDIS_URL ?? "";
  const server = await startSyncServer({
    ...(redisUrl && { redisUrl }),
    port: o.port === undefined ? 1234 : Number(o.port),
    host: o.host ?? "127.0.0.1",
    dbFile: o.db ?? "sync.sqlite",
    secret,
    quiet: true,
  });
  console.log(`sync-server: listening on ${server.url} (database ${o.db ?? "sync.sqlite"}${redisUrl ? `, Redis ${redisUrl.replace(/\/\/[^@/]*@/, "//")}` : ""})`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.argv.slice(2)).catch((error) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  });
}
