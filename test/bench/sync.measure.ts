// Sync figures (issue 33 point 6), `npm run bench sync`:
// - a 1,000-file workspace's first sync into an empty second device, in headless Chromium on the
//   built app: device A restores a backup holding the workspace and syncs it to the server script;
//   device B restores a backup holding only the workspace (same id, no files), and the clock runs
//   from switching "Sync this workspace" on until B's IndexedDB holds all 1,000 files (target 10 s);
// - a save in A's editor until the text is on B's screen (sync sends a file on save today);
// - the server script's memory per open workspace: its resident set (/proc/PID/status VmRSS) with
//   N workspaces held open by real Yjs clients (@hocuspocus/provider over `ws`, one socket each),
//   20 files of about 0.5 KB per workspace, minus the same with none; KB per workspace.
import { readFileSync } from "node:fs";
import type { BrowserContext, Page } from "playwright-core";
import WebSocket from "ws";
import * as Y from "yjs";
import { describe, it } from "vitest";
import { createWorkspace, WorkspaceFiles } from "../../src/runtime";
import { openStorage, type WorkspaceRecord } from "../../src/storage";
import { MOD, treeItem, waitForActiveTab, waitForWorkbench } from "../support/browser";
import { startSyncScript, syncClient, syncToken, tempSyncDb, until, type SyncScript } from "../support/sync-server";
import { holdForeignRequests, useBuiltApp } from "./built-app";
import { median, report } from "./report";

const app = useBuiltApp();
const FILES = 1000;

/** A backup (Settings → Restore from backup) holding one workspace with `files`, made by the real storage code. */
async function backupOf(files: Record<string, string>, workspace?: WorkspaceRecord): Promise<{ bytes: Uint8Array; workspace: WorkspaceRecord }> {
  const storage = await openStorage({ name: `bench-sync-${Math.random()}` });
  try {
    if (workspace) await storage.workspaces.put(workspace);
    const record = workspace ?? (await createWorkspace(storage, "Synced", { seedReadme: false }));
    const fs = await WorkspaceFiles.open(storage, record.id);
    for (const [path, text] of Object.entries(files)) fs.writeSync(path, text);
    await fs.flush();
    await fs.close();
    return { bytes: await storage.backup(), workspace: record };
  } finally {
    storage.close();
  }
}

async function device(context: BrowserContext, backup: Uint8Array): Promise<Page> {
  await holdForeignRequests(context);
  const page = await context.newPage();
  await page.goto(app.url());
  await waitForWorkbench(page);
  await page.getByRole("button", { name: "Settings", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await dialog.getByLabel("Restore from backup").setInputFiles({ name: "backup.zip", mimeType: "application/zip", buffer: Buffer.from(backup) });
  await dialog.getByRole("status").filter({ hasText: /^Restored/ }).waitFor({ timeout: 60_000 });
  await dialog.getByRole("button", { name: "Close" }).click();
  await page.getByRole("combobox", { name: "Workspace" }).selectOption({ label: "Synced" });
  return page;
}

/** Settings → Sync up to the switch; `switchOn` then turns "Sync this workspace" on. */
async function prepareSync(page: Page, server: SyncScript, room: string): Promise<{ switchOn: () => Promise<void>; connected: () => Promise<void> }> {
  await page.getByRole("button", { name: "Settings", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  // The restored workspace is open (Settings → Sync shows its room).
  await dialog.locator("code").filter({ hasText: `--room ${room} ` }).waitFor({ timeout: 30_000 });
  await dialog.getByLabel("Sync server URL").fill(server.url);
  await dialog.getByRole("button", { name: "Set sync server URL" }).click();
  await dialog.getByLabel("Sync token").fill(syncToken(room));
  await dialog.getByRole("button", { name: "Set sync token" }).click();
  await dialog.getByLabel("Sync token").and(page.locator("[placeholder^='Saved: ']")).waitFor();
  return {
    switchOn: () => dialog.getByRole("switch", { name: "Sync this workspace" }).check(),
    connected: async () => {
      await dialog.getByRole("status", { name: "Sync status" }).filter({ hasText: "Status: Connected" }).waitFor({ timeout: 120_000 });
      await dialog.getByRole("button", { name: "Close" }).click();
    },
  };
}

/** How many files of `room` this page's IndexedDB holds. */
function storedCount(page: Page, room: string): Promise<number> {
  return page.evaluate(
    (room) =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open("webcode");
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const request = open.result.transaction("files").objectStore("files").getAll();
          request.onsuccess = () => {
            open.result.close();
            resolve((request.result as Array<{ workspaceId: string; kind: string }>).filter((r) => r.workspaceId === room && r.kind === "file").length);
          };
          request.onerror = () => reject(request.error);
        };
      }),
    room,
  );
}

/** A Chrome DevTools Protocol session with Node's inspector. */
async function connectInspector(url: string): Promise<{ call(method: string): Promise<unknown>; close(): void }> {
  const socket = new WebSocket(url);
  await new Promise((resolve, reject) => {
    socket.once("open", resolve);
    socket.once("error", reject);
  });
  let next = 0;
  const waiting = new Map<number, (result: unknown) => void>();
  socket.on("message", (data: Buffer) => {
    const message = JSON.parse(data.toString()) as { id?: number; result?: unknown };
    if (message.id !== undefined) waiting.get(message.id)?.(message.result);
  });
  return {
    call: (method) =>
      new Promise((resolve) => {
        const id = ++next;
        waiting.set(id, resolve);
        socket.send(JSON.stringify({ id, method }));
      }),
    close: () => socket.close(),
  };
}

function rssKb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return Number(match![1]);
}

describe("sync", () => {
  it("a 1,000-file workspace's first sync into an empty second device (Chromium), and a save from A on B's screen", async () => {
    const cleanups: Array<() => unknown> = [];
    const onCleanup = (cleanup: () => unknown) => void cleanups.push(cleanup);
    try {
      const server = await startSyncScript({ dbFile: tempSyncDb(onCleanup) }, onCleanup);
      const files: Record<string, string> = {};
      for (let i = 0; i < FILES; i++) files[`src/dir${i % 20}/file${i}.ts`] = `export const value${i} = ${i};\n`.repeat(20);
      const full = await backupOf(files);
      const room = full.workspace.id;
      const empty = await backupOf({}, full.workspace);
      const bytes = Object.values(files).reduce((n, text) => n + text.length, 0);

      const contextA = await app.browser().newContext({ viewport: { width: 1440, height: 900 } });
      onCleanup(() => contextA.close());
      const a = await device(contextA, full.bytes);
      const syncA = await prepareSync(a, server, room);
      await syncA.switchOn();
      await syncA.connected();
      // Everything is on the server before B starts.
      const probe = syncClient(server.url, room, syncToken(room, "read"), onCleanup);
      await probe.synced;
      await until(() => probe.doc.getMap("files").size >= FILES, 120_000, "A's files on the server");
      probe.close();

      const contextB = await app.browser().newContext({ viewport: { width: 1440, height: 900 } });
      onCleanup(() => contextB.close());
      const b = await device(contextB, empty.bytes);
      const syncB = await prepareSync(b, server, room);
      const started = Date.now();
      await syncB.switchOn();
      await b.waitForFunction(
        () => document.querySelector("[role=status][aria-label^='Sync status']")?.textContent === "Status: Connected",
        undefined,
        { polling: 50, timeout: 120_000 },
      );
      const connected = Date.now() - started;
      let count = 0;
      while ((count = await storedCount(b, room)) < FILES) {
        if (Date.now() - started > 120_000) throw new Error(`B holds ${count} of ${FILES} files after 120 s`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const firstSync = Date.now() - started;
      await syncB.connected();
      report({ name: "sync: 1,000-file first sync into an empty device", value: firstSync, unit: "ms", target: "<= 10000", note: `Chromium, ${(bytes / 1024).toFixed(0)} KB of text; connected and merged after ${connected} ms, all stored in IndexedDB after ${firstSync} ms` });

      // A save in A's editor until B's editor shows it (both have the file open).
      const path = "src/dir0/file0.ts";
      for (const page of [a, b]) {
        await treeItem(page, "src").click();
        await treeItem(page, "dir0").click();
        await treeItem(page, "file0.ts").click();
        await waitForActiveTab(page, path);
      }
      // A plain client of the room says when each save reached the server.
      const watcher = syncClient(server.url, room, syncToken(room, "read"), onCleanup);
      await watcher.synced;
      const seenAt = new Map<string, number>();
      watcher.doc.getMap("files").observeDeep(() => {
        const text = watcher.doc.getMap("files").get(path)?.toString() ?? "";
        for (const marker of text.match(/\/\/edit\d+x/g) ?? []) if (!seenAt.has(marker)) seenAt.set(marker, Date.now());
      });
      // Timed in the pages (Date.now(): one clock for both contexts and this process): A's Ctrl+S
      // keydown, and the first DOM change of B's editor that shows the marker.
      await a.evaluate(() => {
        const w = window as unknown as { __saveAt?: number };
        window.addEventListener("keydown", (event) => void (event.key === "s" && event.ctrlKey && (w.__saveAt = Date.now())), true);
      });
      await b.evaluate(() => {
        const w = window as unknown as { __marker?: string; __shownAt?: number };
        const host = document.querySelector(".monaco-host")!;
        new MutationObserver(() => {
          if (w.__marker && w.__shownAt === undefined && host.textContent?.includes(w.__marker)) w.__shownAt = Date.now();
        }).observe(host, { childList: true, subtree: true, characterData: true });
      });
      const delays: number[] = [];
      const toServer: number[] = [];
      for (let i = 0; i < 10; i++) {
        // No spaces: Monaco renders them as no-break spaces.
        const marker = `//edit${i}x`;
        await b.evaluate((marker) => Object.assign(window, { __marker: marker, __shownAt: undefined }), marker);
        await a.locator(".monaco-editor .view-lines").first().click();
        await a.keyboard.press(`${MOD}+Home`);
        await a.keyboard.insertText(`${marker}\n`);
        await a.keyboard.press(`${MOD}+s`);
        const shownAt = await b.waitForFunction(() => (window as unknown as { __shownAt?: number }).__shownAt, undefined, { timeout: 15_000 });
        const savedAt = await a.evaluate(() => (window as unknown as { __saveAt: number }).__saveAt);
        delays.push(Number(await shownAt.jsonValue()) - savedAt);
        await until(() => seenAt.has(marker), 5000, "the save at the watching client");
        toServer.push(seenAt.get(marker)! - savedAt);
      }
      report({
        name: "sync: save in A until shown in B's editor",
        value: median(delays),
        unit: "ms",
        note: `Chromium, two contexts, one of 1,000 .ts files, server on 127.0.0.1; from A's Ctrl+S keydown to B's editor DOM, median of 10, max ${Math.max(...delays)} ms; at a Node client of the server after median ${median(toServer)} ms`,
      });
    } finally {
      for (const cleanup of cleanups.reverse()) await cleanup();
    }
  });

  it("the server's memory per open workspace", async () => {
    const cleanups: Array<() => unknown> = [];
    const onCleanup = (cleanup: () => unknown) => void cleanups.push(cleanup);
    try {
      // Node's inspector (on 127.0.0.1) lets the bench collect the server's garbage and read its heap:
      // the script itself has no debug switch for it.
      const server = await startSyncScript({ dbFile: tempSyncDb(onCleanup), nodeArgs: ["--inspect=127.0.0.1:0"] }, onCleanup);
      const inspector = await connectInspector(/Debugger listening on (ws:\/\/\S+)/.exec(server.output())![1]!);
      onCleanup(() => inspector.close());
      const pid = server.child.pid!;
      const settle = async () => {
        // Let the stores (debounce 200 ms, at most 1 s) run, then collect garbage twice and read.
        await new Promise((resolve) => setTimeout(resolve, 1500));
        await inspector.call("HeapProfiler.collectGarbage");
        await inspector.call("HeapProfiler.collectGarbage");
        const heap = (await inspector.call("Runtime.getHeapUsage")) as { usedSize: number };
        return { heapKb: Math.round(heap.usedSize / 1024), rssKb: rssKb(pid) };
      };
      const open = async (count: number, from: number) => {
        for (let w = from; w < from + count; w++) {
          const room = `bench-ws-${w}`;
          const client = syncClient(server.url, room, syncToken(room), onCleanup);
          await client.synced;
          const filesMap = client.doc.getMap<Y.Text>("files");
          client.doc.transact(() => {
            for (let f = 0; f < 20; f++) filesMap.set(`src/file${f}.ts`, new Y.Text(`export const v${f} = "${"x".repeat(480)}";\n`));
          });
        }
      };
      // One workspace first, so that what every server loads once (sql.js, the first document) is in the baseline.
      await open(1, 0);
      const baseline = await settle();
      const readings: Array<{ count: number; heapKb: number; rssKb: number }> = [];
      let extra = 0;
      for (const total of [50, 100, 200]) {
        await open(total - extra, 1 + extra);
        extra = total;
        readings.push({ count: total, ...(await settle()) });
      }
      const last = readings.at(-1)!;
      const describeReadings = readings.map((r) => `+${r.count}: heap ${r.heapKb} KB, RSS ${r.rssKb} KB`).join("; ");
      report({
        name: "sync: server heap per open workspace",
        value: Math.round((last.heapKb - baseline.heapKb) / last.count),
        unit: "KB",
        note: `V8 heap after GC (inspector), 20 files / ~10 KB of text per workspace, one client socket each; 1 open: heap ${baseline.heapKb} KB, RSS ${baseline.rssKb} KB; ${describeReadings}`,
      });
      report({ name: "sync: server resident set per open workspace", value: Math.round((last.rssKb - baseline.rssKb) / last.count), unit: "KB", note: "VmRSS from /proc, same run" });
    } finally {
      for (const cleanup of cleanups.reverse()) await cleanup();
    }
  });
});
