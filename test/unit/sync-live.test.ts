// Live collaboration (issue 33 point 4) without a browser: two devices, each a WorkspaceFiles
// (fake-indexeddb) with its editor's open documents (in-memory buffers) and its own provider, on
// the repository's real sync server script on 127.0.0.1. A stand-in for y-monaco binds each open
// buffer to the file's Y.Text (keystrokes into the Y.Text with the binding as origin, remote
// changes into the buffer), as src/ui/sync/live-editing.ts does with Monaco: keystrokes reach the
// other side before any save, without conflicts, echoes or double applies; saves, agent writes
// and presence (names, colours, open files) behave as docs/architecture.md "Sync" says.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import WebSocket from "ws";
import type * as Y from "yjs";
import { afterEach, describe, expect, it } from "vitest";
import { signRoomToken } from "../../scripts/sync-server.mjs";
import type { Disposable } from "../../src/base";
import { WorkspaceFiles, type FileChange } from "../../src/runtime";
import { openStorage } from "../../src/storage";
import { connectWorkspaceSync } from "../../src/storage/sync/connect";
import { EditorDocuments } from "../../src/ui/editor";
import { bindPresence, guestName, peersFrom } from "../../src/ui/sync/presence";
import { MemoryBuffer } from "../support/memory-buffer";

const SECRET = "test-secret";
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function startServer(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "webcode-sync-live-"));
  const child = spawn(process.execPath, ["scripts/sync-server.mjs", "--port", "0", "--db", join(dir, "sync.sqlite")], {
    env: { ...process.env, SYNC_SECRET: SECRET },
    stdio: ["ignore", "pipe", "pipe"],
  });
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  cleanups.push(async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  });
  return new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (ws:\/\/\S+)/.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    child.once("exit", (code) => reject(new Error(`sync-server exited ${code}: ${out}`)));
  });
}

/** What y-monaco does, on a plain buffer: typing goes into the Y.Text (origin: the binding), remote changes into the buffer. */
function bindBuffer(text: Y.Text, buffer: MemoryBuffer) {
  const binding = {
    type(at: number, chars: string) {
      text.doc!.transact(() => text.insert(at, chars), binding);
      buffer.setValue(text.toString());
    },
  };
  const observer = (_event: Y.YTextEvent, transaction: Y.Transaction) => {
    if (transaction.origin !== binding) buffer.setValue(text.toString());
  };
  text.observe(observer);
  if (buffer.getValue() !== text.toString()) buffer.setValue(text.toString());
  return { binding, dispose: () => text.unobserve(observer) };
}

/** Change notifications reach the editor's documents on a later tick: let them arrive, then be handled. */
async function settle(documents: EditorDocuments): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 50));
  await documents.idle();
}

let counter = 0;
async function device(url: string, room: string, initial: Record<string, string> = {}, access: "read" | "write" = "write") {
  const storage = await openStorage({ name: `sync-live-${counter++}-${Date.now()}` });
  const files = await WorkspaceFiles.open(storage, room);
  for (const [path, text] of Object.entries(initial)) await files.writeFile(path, text);
  const changes: FileChange[] = [];
  files.onDidChange((batch) => changes.push(...batch));
  const buffers = new Map<string, MemoryBuffer>();
  const errors: string[] = [];
  const documents = new EditorDocuments({
    files,
    loadBuffers: async () => ({
      create: (path, text) => {
        const buffer = new MemoryBuffer(path, text);
        buffers.set(path, buffer);
        return buffer;
      },
    }),
    askUnsaved: async () => "cancel",
    onError: (error, context) => errors.push(`${context}: ${String(error)}`),
  });
  const accesses: string[] = [];
  const connection = connectWorkspaceSync({
    files,
    url,
    token: signRoomToken({ room, access, secret: SECRET }),
    WebSocketPolyfill: WebSocket,
    onAccess: (a) => accesses.push(a),
  });
  cleanups.push(() => {
    documents.dispose();
    connection.dispose();
    files.dispose();
  });
  /** Opens a file and binds its buffer live, as LiveEditing does for each open text tab. */
  const openLive = async (path: string) => {
    await documents.open(path);
    const text = connection.sync.liveText(path)!;
    const bound = bindBuffer(text, buffers.get(path)!);
    const live: Disposable[] = [connection.sync.markLive(path, bound.binding), documents.setLive(path), bound];
    cleanups.push(() => live.forEach((d) => d.dispose()));
    return bound.binding;
  };
  const disk = (path: string) => (files.statSync(path) ? (files.readSync(path) as string) : undefined);
  return { files, documents, connection, changes, buffers, errors, accesses, openLive, disk };
}

describe("live editing through the sync server", () => {
  it("keystrokes reach the other side's editor and disk before any save; saves and agent writes neither echo nor double-apply", async () => {
    const url = await startServer();
    const a = await device(url, "ws-live", { "src/main.ts": "const x = 1;\n" });
    await a.connection.ready;
    const b = await device(url, "ws-live");
    await b.connection.ready;
    const typeA = await a.openLive("src/main.ts");
    const typeB = await b.openLive("src/main.ts");

    // A types (no save): B's editor shows it, B's file service has it as source "sync", B's tab is clean.
    typeA.type(0, "// A\n");
    await until(() => b.buffers.get("src/main.ts")!.getValue() === "// A\nconst x = 1;\n");
    await until(() => b.disk("src/main.ts") === "// A\nconst x = 1;\n");
    await settle(b.documents);
    expect(b.documents.tab("src/main.ts")).toMatchObject({ dirty: false, conflict: false });
    expect(b.changes.filter((c) => c.path === "src/main.ts").every((c) => c.source === "sync")).toBe(true);
    // A's own keystroke is not written back to A's disk as a remote change: A's tab is dirty until saved.
    expect(a.disk("src/main.ts")).toBe("const x = 1;\n");
    await settle(a.documents);
    expect(a.documents.tab("src/main.ts")?.dirty).toBe(true);

    // Both type at once (B's keystroke lands just after A's arrives on B's disk, before B's tab has
    // read it): both editors converge, nobody is asked about a conflict.
    const typeOnArrival = b.files.onDidChange(() => {
      typeOnArrival.dispose();
      typeB.type(b.buffers.get("src/main.ts")!.getValue().length, "// B\n");
    });
    typeA.type(0, "a");
    const both = () => a.buffers.get("src/main.ts")!.getValue();
    await until(() => both() === b.buffers.get("src/main.ts")!.getValue() && both().includes("// B") && both().startsWith("a// A"));
    await Promise.all([settle(a.documents), settle(b.documents)]);
    expect(a.documents.tab("src/main.ts")?.conflict).toBe(false);
    expect(b.documents.tab("src/main.ts")?.conflict).toBe(false);

    // A saves: the file service has A's text, the shared text is unchanged (not diffed in again).
    const shared = a.connection.sync.liveText("src/main.ts")!;
    const before = shared.toString();
    let sharedEdits = 0;
    shared.observe(() => sharedEdits++);
    expect(await a.documents.save("src/main.ts")).toBe(true);
    expect(a.disk("src/main.ts")).toBe(before);
    expect(a.documents.tab("src/main.ts")?.dirty).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(sharedEdits).toBe(0);

    // The agent writes the open file on B: B's editor shows it, and so does A's.
    await b.files.writeFile("src/main.ts", "export const agent = true;\n", { source: "agent" });
    await until(() => a.buffers.get("src/main.ts")!.getValue() === "export const agent = true;\n");
    expect(b.buffers.get("src/main.ts")!.getValue()).toBe("export const agent = true;\n");
    await Promise.all([settle(a.documents), settle(b.documents)]);
    expect(b.documents.tab("src/main.ts")).toMatchObject({ dirty: false, conflict: false });
    expect(a.errors).toEqual([]);
    expect(b.errors).toEqual([]);
  }, 30_000);

  it("presence: each side sees the other's name, colour and open file; a read-only token is reported as read", async () => {
    const url = await startServer();
    const a = await device(url, "ws-presence", { "README.md": "# hi\n", "src/a.ts": "1\n" });
    await a.connection.ready;
    const b = await device(url, "ws-presence", {}, "read");
    await b.connection.ready;
    expect(a.accesses).toEqual(["write"]);
    expect(b.accesses).toEqual(["read"]);
    const presenceA = bindPresence(a.connection.provider.awareness!, a.documents, "Ann Lee");
    const presenceB = bindPresence(b.connection.provider.awareness!, b.documents, "");
    cleanups.push(() => {
      presenceA.dispose();
      presenceB.dispose();
    });
    await a.documents.open("src/a.ts");
    await until(() => b.documents.live.getState().peers.some((p) => p.name === "Ann Lee" && p.openPath === "src/a.ts"));
    const ann = b.documents.live.getState().peers[0]!;
    expect(ann.color).toMatch(/^#[0-9a-f]{6}$/);
    await b.documents.open("README.md");
    const guest = guestName(b.connection.provider.awareness!.clientID);
    await until(() => a.documents.live.getState().peers.some((p) => p.name === guest && p.openPath === "README.md"));
    await a.documents.open("README.md");
    await until(() => b.documents.live.getState().peers[0]?.openPath === "README.md");
    presenceA.dispose();
    expect(a.documents.live.getState().peers).toEqual([]);
  }, 30_000);
});

describe("peersFrom", () => {
  it("keeps only well-formed peers, leaves out the local one, and never passes on a colour that is not #rrggbb", () => {
    const states = new Map<number, Record<string, unknown>>([
      [1, { user: { name: "Me", color: "#000000" } }],
      [2, { user: { name: "Ann", color: "red;}body{display:none" }, openPath: "a.ts" }],
      [3, { user: { name: "  " } }],
      [4, { selection: {} }],
      [5, { user: { name: "Bob", color: "#A1B2C3" }, openPath: null }],
      [6, { user: { name: "x".repeat(100) } }],
    ]);
    const peers = peersFrom(states, 1);
    expect(peers.map((p) => p.id)).toEqual([2, 5, 6]);
    expect(peers[0]).toMatchObject({ name: "Ann", openPath: "a.ts" });
    expect(peers[0]!.color).toMatch(/^#[0-9a-f]{6}$/);
    expect(peers[1]).toEqual({ id: 5, name: "Bob", color: "#A1B2C3" });
    expect(peers[2]!.name).toHaveLength(40);
  });
});
