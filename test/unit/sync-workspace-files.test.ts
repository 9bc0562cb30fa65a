// Workspace sync, the data model of version 2 (issue 33; docs/architecture.md "Sync"): binary files
// as content-addressed blobs (last writer wins, the loser kept as a copy, unreferenced blobs
// removed, a size limit), a delete against a concurrent edit keeps the edited file, a version-1
// document still loads, the document kept in IndexedDB across reloads, empty folders, and remote
// changes to files that can loosen permissions held for the user. Two devices (WorkspaceFiles on
// fake-indexeddb) against the repository's real sync server script on 127.0.0.1.
import { HocuspocusProvider, HocuspocusProviderWebsocket } from "@hocuspocus/provider";
import WebSocket from "ws";
import * as Y from "yjs";
import { afterEach, describe, expect, it } from "vitest";
import { signRoomToken } from "../../scripts/sync-server.mjs";
import { deviceConflictPath, isAlive, laterWrite, MAX_BLOB_BYTES, sha256Hex, type BlobRef } from "../../src/storage/sync/sync-model";
import { startSyncServer, sleep, SYNC_SECRET, syncDevice, until } from "../support/sync-devices";

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const bytesOf = (...values: number[]) => new Uint8Array([0, ...values]); // a NUL byte: stored as binary
const same = (a: unknown, b: Uint8Array) => a instanceof Uint8Array && a.length === b.length && a.every((x, i) => x === b[i]);

describe("binary files", () => {
  it("reach the other device as the same bytes; a rewrite removes the old blob; text <-> binary switches", async () => {
    const url = await startSyncServer(cleanups);
    const a = await syncDevice(cleanups, url, "bin-1", { initial: { "img/logo.png": bytesOf(1, 2, 3) } });
    await a.connection.ready;
    const b = await syncDevice(cleanups, url, "bin-1");
    await b.connection.ready;
    expect(same(b.bytes("img/logo.png"), bytesOf(1, 2, 3))).toBe(true);
    expect([...a.connection.sync.blobs.keys()]).toEqual([sha256Hex(bytesOf(1, 2, 3))]);

    await a.files.writeFile("img/logo.png", bytesOf(4, 5));
    await until(() => same(b.bytes("img/logo.png"), bytesOf(4, 5)));
    // The first version's blob is no longer referenced: removed from the document (on both).
    await until(() => [...b.connection.sync.blobs.keys()].join() === sha256Hex(bytesOf(4, 5)));

    await a.files.writeFile("img/logo.png", "now text\n");
    await until(() => b.text("img/logo.png") === "now text\n");
    expect(b.connection.sync.blobs.size).toBe(0);
    await a.files.writeFile("img/logo.png", bytesOf(9));
    await until(() => same(b.bytes("img/logo.png"), bytesOf(9)));
    expect(b.changes.every((c) => c.source === "sync")).toBe(true);
  });

  it("concurrent writes of one binary file: the later write wins on both, the other is kept as name.conflict-<device>.ext and said", async () => {
    const url = await startSyncServer(cleanups);
    const a = await syncDevice(cleanups, url, "bin-2", { device: "A", initial: { "logo.png": bytesOf(1) } });
    await a.connection.ready;
    const b = await syncDevice(cleanups, url, "bin-2", { device: "B" });
    await b.connection.ready;
    a.connection.disconnect();
    b.connection.disconnect();
    await until(() => a.statuses.at(-1) === "offline" && b.statuses.at(-1) === "offline");
    await a.files.writeFile("logo.png", bytesOf(2, 2));
    await sleep(20);
    await b.files.writeFile("logo.png", bytesOf(3, 3, 3)); // later: wins
    await a.connection.connect();
    await b.connection.connect();
    await until(() => same(a.bytes("logo.png"), bytesOf(3, 3, 3)) && same(b.bytes("logo.png"), bytesOf(3, 3, 3)));
    await until(() => same(a.bytes("logo.conflict-A.png"), bytesOf(2, 2)) && same(b.bytes("logo.conflict-A.png"), bytesOf(2, 2)));
    // Said on both devices.
    await until(() => a.conflicts.length > 0 && b.conflicts.length > 0);
    expect(a.conflicts).toEqual([{ path: "logo.png", copy: "logo.conflict-A.png", reason: "concurrent" }]);
    expect(b.conflicts).toEqual([{ path: "logo.png", copy: "logo.conflict-A.png", reason: "concurrent" }]);
    expect(a.files.snapshotPaths().sort()).toEqual(["logo.conflict-A.png", "logo.png"]);
  });

  it("measured: a 1 MB binary file from A is in B's file service", async () => {
    const url = await startSyncServer(cleanups);
    const a = await syncDevice(cleanups, url, "bin-m");
    await a.connection.ready;
    const b = await syncDevice(cleanups, url, "bin-m");
    await b.connection.ready;
    const data = new Uint8Array(1024 * 1024).map((_, i) => (i * 7919) % 256);
    data[0] = 0;
    const t0 = performance.now();
    a.files.writeSync("data.bin", data, { source: "editor" });
    await until(() => same(b.bytes("data.bin"), data));
    const ms = performance.now() - t0;
    console.log(`sync: 1 MB binary file A -> B ${ms.toFixed(0)} ms`);
    expect(ms).toBeLessThan(5000);
  });

  it(`a binary file over ${MAX_BLOB_BYTES / 1024 / 1024} MB is not synced, said once; the device keeps it`, async () => {
    const url = await startSyncServer(cleanups);
    const a = await syncDevice(cleanups, url, "bin-3");
    await a.connection.ready;
    const b = await syncDevice(cleanups, url, "bin-3");
    await b.connection.ready;
    const big = new Uint8Array(MAX_BLOB_BYTES + 1); // zeros: binary
    await a.files.writeFile("big.bin", big);
    await a.files.writeFile("small.txt", "after\n");
    await until(() => b.text("small.txt") === "after\n");
    expect(b.bytes("big.bin")).toBeUndefined();
    expect(a.skipped).toEqual([expect.stringMatching(/^big\.bin \(5\.0 MB\) is not synced: binary files over 5\.0 MB are not/)]);
    expect(a.connection.sync.blobs.size).toBe(0);
  });
});

describe("a delete against a concurrent edit", () => {
  it("keeps the edited file on both devices, with the edit, and says so on both", async () => {
    const url = await startSyncServer(cleanups);
    const a = await syncDevice(cleanups, url, "del-1", { initial: { "notes.md": "one\ntwo\n", "gone.md": "bye\n" } });
    await a.connection.ready;
    const b = await syncDevice(cleanups, url, "del-1");
    await b.connection.ready;
    a.connection.disconnect();
    await until(() => a.statuses.at(-1) === "offline");
    await a.files.remove("notes.md");
    await a.files.remove("gone.md");
    await b.files.writeFile("notes.md", "one\ntwo edited on B\n");
    await a.connection.connect();
    await until(() => a.text("notes.md") === "one\ntwo edited on B\n");
    expect(b.text("notes.md")).toBe("one\ntwo edited on B\n");
    // A delete nobody raced still deletes.
    await until(() => b.text("gone.md") === undefined);
    expect(a.restored).toEqual([{ path: "notes.md", deleted: "here" }]);
    await until(() => b.restored.length > 0);
    expect(b.restored).toEqual([{ path: "notes.md", deleted: "there" }]);
    // And a later delete, having seen the edit, deletes.
    await b.files.remove("notes.md");
    await until(() => a.text("notes.md") === undefined);
  });

  it("two devices creating one path at once: one version wins on both, the other is kept as a copy", async () => {
    const url = await startSyncServer(cleanups);
    const a = await syncDevice(cleanups, url, "del-2", { device: "A" });
    await a.connection.ready;
    const b = await syncDevice(cleanups, url, "del-2", { device: "B" });
    await b.connection.ready;
    a.connection.disconnect();
    b.connection.disconnect();
    await until(() => a.statuses.at(-1) === "offline" && b.statuses.at(-1) === "offline");
    await a.files.writeFile("new.txt", "from A\n");
    await b.files.writeFile("new.txt", "from B\n");
    await a.connection.connect();
    await b.connection.connect();
    await until(() => a.text("new.txt") !== undefined && a.text("new.txt") === b.text("new.txt"));
    const loser = a.text("new.txt") === "from A\n" ? "B" : "A";
    const copy = `new.conflict-${loser}.txt`;
    await until(() => a.text(copy) === `from ${loser}\n` && b.text(copy) === `from ${loser}\n`);
  });
});

describe("the document across versions and reloads", () => {
  it("a version-1 document (path -> Y.Text in doc.getMap('files'), as main wrote it) loads and is versioned", async () => {
    const url = await startSyncServer(cleanups);
    const socket = new HocuspocusProviderWebsocket({ url, WebSocketPolyfill: WebSocket as unknown as typeof globalThis.WebSocket });
    const oldDoc = new Y.Doc();
    const old = new HocuspocusProvider({ websocketProvider: socket, name: "v1", document: oldDoc, token: signRoomToken({ room: "v1", access: "write", secret: SYNC_SECRET }) });
    old.attach();
    cleanups.push(() => {
      old.destroy();
      socket.destroy();
    });
    await new Promise<void>((resolve) => old.on("synced", () => resolve()));
    oldDoc.getMap<Y.Text>("files").set("src/old.ts", new Y.Text("export const v = 1;\n"));
    await until(() => !old.hasUnsyncedChanges);
    const a = await syncDevice(cleanups, url, "v1");
    await a.connection.ready;
    expect(a.text("src/old.ts")).toBe("export const v = 1;\n");
    expect(a.connection.sync.doc.getMap("meta").toJSON()).toEqual({ version: 2, migrated: true });
    // Edits go to the version-2 model and reach other devices.
    await a.files.writeFile("src/old.ts", "export const v = 2;\n");
    const b = await syncDevice(cleanups, url, "v1");
    await b.connection.ready;
    expect(b.text("src/old.ts")).toBe("export const v = 2;\n");
  });

  it("kept in IndexedDB: a reload while offline binds the files to the kept document; the offline edit merges per character on reconnect", async () => {
    const url = await startSyncServer(cleanups);
    const a1 = await syncDevice(cleanups, url, "keep-1", { localName: "keep-a", initial: { "f.txt": "alpha\nbeta\n" } });
    await a1.connection.ready;
    const b = await syncDevice(cleanups, url, "keep-1");
    await b.connection.ready;
    await sleep(100); // y-indexeddb's writes
    await a1.close();

    // Reload without a reachable server (a port nothing listens on): the kept document is bound.
    const dead = "ws://127.0.0.1:9";
    const a2 = await syncDevice(cleanups, dead, "keep-1", { localName: "keep-a", storage: a1.storage });
    await a2.connection.restored;
    await a2.files.writeFile("f.txt", "alpha offline\nbeta\n");
    await b.files.writeFile("f.txt", "alpha\nbeta online\n");
    await sleep(100);
    await a2.close();

    // Another reload, now online: the edit made offline merges with B's, no conflict copy.
    const a3 = await syncDevice(cleanups, url, "keep-1", { localName: "keep-a", storage: a1.storage });
    await a3.connection.ready;
    const merged = "alpha offline\nbeta online\n";
    await until(() => a3.text("f.txt") === merged && b.text("f.txt") === merged);
    expect(a3.conflicts).toEqual([]);
    expect(a3.files.snapshotPaths()).toEqual(["f.txt"]);
  });
});

describe("folders", () => {
  it("an empty folder is created, renamed and removed on the other device", async () => {
    const url = await startSyncServer(cleanups);
    const a = await syncDevice(cleanups, url, "dir-1", { initial: { "keep.txt": "k\n" } });
    await a.connection.ready;
    const b = await syncDevice(cleanups, url, "dir-1");
    await b.connection.ready;
    await a.files.mkdir("empty/inner");
    await until(() => b.files.statSync("empty/inner")?.kind === "dir");
    await a.files.rename("empty", "moved");
    await until(() => b.files.statSync("moved/inner")?.kind === "dir" && b.files.statSync("empty") === undefined);
    await a.files.remove("moved");
    await until(() => b.files.statSync("moved") === undefined);
    expect(b.text("keep.txt")).toBe("k\n");
  });
});

describe("files that can loosen permissions", () => {
  const guarded = (path: string) => path === "opencode.json";

  it("a remote change or delete is held until the user accepts it or keeps theirs", async () => {
    const url = await startSyncServer(cleanups);
    const strict = '{"permission": {"bash": "deny"}}\n';
    const loose = '{"permission": {}}\n';
    const a = await syncDevice(cleanups, url, "perm-1", { initial: { "opencode.json": strict } });
    await a.connection.ready;
    const b = await syncDevice(cleanups, url, "perm-1", { guarded });
    await b.connection.ready;
    expect(b.text("opencode.json")).toBe(strict); // a new file only adds limits: taken

    await a.files.writeFile("opencode.json", loose);
    await until(() => b.held().length === 1);
    expect(b.held()).toEqual([{ path: "opencode.json", change: "changed" }]);
    expect(b.text("opencode.json")).toBe(strict);
    b.connection.sync.acceptHeld("opencode.json");
    expect(b.text("opencode.json")).toBe(loose);
    expect(b.held()).toEqual([]);

    await a.files.writeFile("opencode.json", "{}\n");
    await until(() => b.held().length === 1);
    b.connection.sync.keepMineHeld("opencode.json");
    await until(() => a.text("opencode.json") === loose); // B's version went to everyone
    expect(b.text("opencode.json")).toBe(loose);

    await a.files.remove("opencode.json");
    await until(() => b.held().length === 1);
    expect(b.held()).toEqual([{ path: "opencode.json", change: "deleted" }]);
    expect(b.text("opencode.json")).toBe(loose);
    b.connection.sync.acceptHeld("opencode.json");
    expect(b.text("opencode.json")).toBeUndefined();
  });

  it("a held change that the other device takes back is no longer held", async () => {
    const url = await startSyncServer(cleanups);
    const a = await syncDevice(cleanups, url, "perm-3", { initial: { "opencode.json": "{}\n" } });
    await a.connection.ready;
    const b = await syncDevice(cleanups, url, "perm-3", { guarded });
    await b.connection.ready;
    await a.files.writeFile("opencode.json", '{"x": 1}\n');
    await until(() => b.held().length === 1);
    await a.files.writeFile("opencode.json", "{}\n");
    await until(() => b.held().length === 0);
    expect(b.text("opencode.json")).toBe("{}\n");
  });

  it("on first connect, a guarded file that differs is held instead of overwritten", async () => {
    const url = await startSyncServer(cleanups);
    const a = await syncDevice(cleanups, url, "perm-2", { initial: { "opencode.json": "{}\n" } });
    await a.connection.ready;
    const b = await syncDevice(cleanups, url, "perm-2", { guarded, initial: { "opencode.json": '{"permission": {"bash": "deny"}}\n' } });
    await b.connection.ready;
    await until(() => b.held().length === 1);
    expect(b.text("opencode.json")).toBe('{"permission": {"bash": "deny"}}\n');
    expect(b.conflicts).toEqual([]);
  });
});

describe("the model's rules", () => {
  it("an entry is alive unless its tombstone saw its latest edit", () => {
    const doc = new Y.Doc();
    const entry = new Y.Map<unknown>();
    doc.getMap("tree").set("f", entry);
    entry.set("edit", "e1");
    expect(isAlive(entry)).toBe(true);
    entry.set("deleted", { edit: "e1" });
    expect(isAlive(entry)).toBe(false);
    entry.set("edit", "e2"); // an edit the deleting device had not seen
    expect(isAlive(entry)).toBe(true);
  });

  it("the later binary write wins, then the higher device label; copies are named after the device", () => {
    const ref = (writer: string, time: number): BlobRef => ({ hash: writer, size: 1, writer, time, id: writer, base: null });
    expect(laterWrite(ref("A", 2), ref("B", 1)).writer).toBe("A");
    expect(laterWrite(ref("A", 1), ref("B", 2)).writer).toBe("B");
    expect(laterWrite(ref("A", 1), ref("B", 1)).writer).toBe("B");
    expect(laterWrite(ref("B", 1), ref("A", 1)).writer).toBe("B");
    expect(deviceConflictPath("img/logo.png", "A")).toBe("img/logo.conflict-A.png");
    expect(deviceConflictPath("Makefile", "my laptop")).toBe("Makefile.conflict-my-laptop");
    expect(sha256Hex(new Uint8Array())).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  });
});
