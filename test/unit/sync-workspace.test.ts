// Workspace file sync (issue 33 step 2): two WorkspaceFiles (fake-indexeddb storage), each
// connected through its own @hocuspocus/provider to the repository's real sync server script on
// 127.0.0.1. Edits, creates, deletes and renames reach the other side through the file service
// with source "sync"; concurrent edits converge; an offline edit merges on reconnect; the first
// connect merges both sides and keeps a differing local text as a conflict copy.
import WebSocket from "ws";
import { afterEach, describe, expect, it } from "vitest";
import { WorkspaceFiles, type FileChange } from "../../src/runtime";
import { openStorage } from "../../src/storage";
import { connectWorkspaceSync, type SyncStatus } from "../../src/storage/sync/connect";
import { conflictCopyPath } from "../../src/storage/sync/workspace-sync";
import { startSyncScript, syncToken, tempSyncDb, until } from "../support/sync-server";

const cleanups: Array<() => unknown> = [];
const onCleanup = (cleanup: () => unknown) => void cleanups.push(cleanup);
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The repo's own script, as `npm run sync-server` runs it; resolves with its URL once it listens. */
async function startServer(): Promise<string> {
  return (await startSyncScript({ dbFile: tempSyncDb(onCleanup) }, onCleanup)).url;
}

let counter = 0;
async function device(url: string, room: string, initial: Record<string, string> = {}) {
  const storage = await openStorage({ name: `sync-ws-${counter++}-${Date.now()}` });
  const files = await WorkspaceFiles.open(storage, room);
  for (const [path, text] of Object.entries(initial)) await files.writeFile(path, text);
  const changes: FileChange[] = [];
  files.onDidChange((batch) => changes.push(...batch));
  const statuses: SyncStatus[] = [];
  const connection = connectWorkspaceSync({
    files,
    url,
    token: syncToken(room),
    WebSocketPolyfill: WebSocket,
    onStatus: (status) => statuses.push(status),
  });
  cleanups.push(() => {
    connection.dispose();
    files.dispose();
  });
  const text = (path: string) => (files.statSync(path) ? (files.readSync(path) as string) : undefined);
  return { files, storage, connection, changes, statuses, text };
}

describe("workspace file sync through the sync server", () => {
  it("an edit, a new file, a rename and a delete on A reach B through the file service as source sync, and are stored", async () => {
    const url = await startServer();
    const a = await device(url, "ws-1", { "src/main.ts": "const a = 1;\n" });
    await a.connection.ready;
    const b = await device(url, "ws-1");
    await b.connection.ready;
    expect(b.text("src/main.ts")).toBe("const a = 1;\n");
    expect(a.statuses).toContain("connected");

    await a.files.writeFile("src/main.ts", "const a = 2;\n", { source: "editor" });
    await until(() => b.text("src/main.ts") === "const a = 2;\n");
    await a.files.writeFile("README.md", "# hi\n", { source: "terminal" });
    await until(() => b.text("README.md") === "# hi\n");
    await a.files.rename("README.md", "docs/README.md");
    await until(() => b.text("docs/README.md") === "# hi\n" && b.text("README.md") === undefined);
    await a.files.remove("src/main.ts");
    await until(() => b.text("src/main.ts") === undefined);

    expect(b.changes.length).toBeGreaterThan(0);
    expect(b.changes.every((c) => c.source === "sync")).toBe(true);
    // Not echoed: A saw only its own changes.
    expect(a.changes.some((c) => c.source === "sync")).toBe(false);
    await b.files.flush();
    const stored = (await b.storage.files.list("ws-1")).filter((r) => r.kind === "file").map((r) => r.path);
    expect(stored).toEqual(["docs/README.md"]);
  });

  it("measured: a save on A is in B's file service within 100 ms; a 1,000-file workspace's first sync", async () => {
    const url = await startServer();
    const initial: Record<string, string> = {};
    for (let i = 0; i < 1000; i++) initial[`src/dir${i % 20}/file${i}.ts`] = `export const value${i} = ${i};\n`.repeat(20);
    const a = await device(url, "ws-m", initial);
    await a.connection.ready;
    const started = performance.now();
    const b = await device(url, "ws-m");
    await b.connection.ready;
    const firstSync = performance.now() - started;
    expect(b.files.snapshotPaths().filter((p) => p.endsWith(".ts"))).toHaveLength(1000);
    const delays: number[] = [];
    for (let i = 0; i < 20; i++) {
      const text = `edit ${i}\n`;
      const t0 = performance.now();
      a.files.writeSync("src/dir0/file0.ts", text, { source: "editor" });
      await until(() => b.text("src/dir0/file0.ts") === text, 2000);
      delays.push(performance.now() - t0);
    }
    delays.sort((x, y) => x - y);
    const median = delays[10]!;
    console.log(`sync: first sync of 1,000 files ${firstSync.toFixed(0)} ms; save A -> B median ${median.toFixed(1)} ms, max ${delays.at(-1)!.toFixed(1)} ms`);
    expect(median).toBeLessThan(100);
    expect(firstSync).toBeLessThan(10_000);
  });

  it("concurrent edits to different parts of one file converge to the same text on both", async () => {
    const url = await startServer();
    const base = "line 1\nline 2\nline 3\n";
    const a = await device(url, "ws-2", { "f.txt": base });
    await a.connection.ready;
    const b = await device(url, "ws-2");
    await b.connection.ready;
    // Both write before either has seen the other's change.
    a.files.writeSync("f.txt", "line 1 from A\nline 2\nline 3\n", { source: "editor" });
    b.files.writeSync("f.txt", "line 1\nline 2\nline 3 from B\n", { source: "editor" });
    const both = "line 1 from A\nline 2\nline 3 from B\n";
    await until(() => a.text("f.txt") === both && b.text("f.txt") === both);
  });

  it("an edit made while A is offline merges with B's edit on reconnect", async () => {
    const url = await startServer();
    const a = await device(url, "ws-3", { "f.txt": "alpha\nbeta\n" });
    await a.connection.ready;
    const b = await device(url, "ws-3");
    await b.connection.ready;
    a.connection.disconnect();
    await until(() => a.statuses.at(-1) === "offline");
    await a.files.writeFile("f.txt", "alpha offline\nbeta\n");
    await a.files.writeFile("new.txt", "made offline\n");
    await b.files.writeFile("f.txt", "alpha\nbeta online\n");
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(b.text("f.txt")).toBe("alpha\nbeta online\n"); // nothing reached B while A was away
    await a.connection.connect();
    const merged = "alpha offline\nbeta online\n";
    await until(() => a.text("f.txt") === merged && b.text("f.txt") === merged);
    await until(() => b.text("new.txt") === "made offline\n");
  });

  it("first connect: files only on one side go to the other; a differing file keeps the shared text and the local one as a conflict copy", async () => {
    const url = await startServer();
    const a = await device(url, "ws-4", { "same.txt": "same\n", "both.txt": "from A\n", "a-only.txt": "A\n" });
    await a.connection.ready;
    const conflicts: unknown[] = [];
    const storage = await openStorage({ name: `sync-ws-b-${Date.now()}` });
    const files = await WorkspaceFiles.open(storage, "ws-4");
    await files.writeFile("same.txt", "same\n");
    await files.writeFile("both.txt", "from B\n");
    await files.writeFile("b-only.txt", "B\n");
    const connection = connectWorkspaceSync({
      files,
      url,
      token: syncToken("ws-4"),
      WebSocketPolyfill: WebSocket,
      onConflicts: (found) => conflicts.push(...found),
    });
    cleanups.push(() => {
      connection.dispose();
      files.dispose();
    });
    await connection.ready;
    expect(conflicts).toEqual([{ path: "both.txt", copy: "both.local-conflict.txt", reason: "first-connect" }]);
    expect(files.readSync("both.txt")).toBe("from A\n");
    expect(files.readSync("both.local-conflict.txt")).toBe("from B\n");
    expect(files.readSync("a-only.txt")).toBe("A\n");
    await until(() => a.text("b-only.txt") === "B\n" && a.text("both.local-conflict.txt") === "from B\n");
    expect(a.text("both.txt")).toBe("from A\n");
  });

  it("a token for another room is refused and reported as an error; nothing changes", async () => {
    const url = await startServer();
    const storage = await openStorage({ name: `sync-ws-bad-${Date.now()}` });
    const files = await WorkspaceFiles.open(storage, "ws-5");
    await files.writeFile("f.txt", "mine\n");
    const statuses: Array<[SyncStatus, string | undefined]> = [];
    const connection = connectWorkspaceSync({
      files,
      url,
      token: syncToken("other"),
      WebSocketPolyfill: WebSocket,
      onStatus: (status, detail) => statuses.push([status, detail]),
    });
    cleanups.push(() => {
      connection.dispose();
      files.dispose();
    });
    await until(() => statuses.some(([s]) => s === "error"));
    expect(files.readSync("f.txt")).toBe("mine\n");
    expect(files.snapshotPaths()).toEqual(["f.txt"]);
  });
});

describe("conflictCopyPath", () => {
  it("puts .local-conflict before the extension", () => {
    expect(conflictCopyPath("src/a.ts")).toBe("src/a.local-conflict.ts");
    expect(conflictCopyPath("Makefile")).toBe("Makefile.local-conflict");
    expect(conflictCopyPath("dir.x/.env")).toBe("dir.x/.env.local-conflict");
  });
});
