// Session sync in the browser (issue 33 points 2, 4 and 5): two browser contexts (two devices:
// each its own IndexedDB) on one workspace, both syncing through the repository's real sync server
// script on 127.0.0.1, the model a fake OpenAI-compatible server. A turn sent in A streams into B's
// chat while it runs; B shows where it runs and holds Send; when it ends, B has the whole reply.
import type { Page } from "playwright-core";
import { afterEach, describe, expect, it } from "vitest";
import { signRoomToken } from "../../scripts/sync-server.mjs";
import { startSyncScript, SYNC_SECRET, tempSyncDb } from "../support/sync-server";
import { waitForWorkbench } from "../support/browser";
import { chat, scripted, sendMessage, transcript, useAgentBrowser } from "./agent-helpers";

const browser = useAgentBrowser();
const stops: Array<() => unknown> = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

async function startSyncServer(): Promise<string> {
  const onCleanup = (cleanup: () => unknown) => void stops.push(cleanup);
  return (await startSyncScript({ dbFile: tempSyncDb(onCleanup) }, onCleanup)).url;
}

/** The open workspace's record, read from the app's IndexedDB (the sync room is its id). */
async function openWorkspace(page: Page): Promise<{ id: string; record: unknown }> {
  return page.evaluate(
    () =>
      new Promise<{ id: string; record: unknown }>((resolve, reject) => {
        const open = indexedDB.open("webcode");
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction(["workspaces", "settings"]);
          const last = tx.objectStore("settings").get("ui.lastWorkspaceId");
          const all = tx.objectStore("workspaces").getAll();
          tx.oncomplete = () => {
            const workspaces = all.result as Array<{ id: string; updatedAt: number }>;
            const id = (last.result as { value?: string } | undefined)?.value ?? workspaces.sort((a, b) => b.updatedAt - a.updatedAt)[0]!.id;
            open.result.close();
            resolve({ id, record: workspaces.find((w) => w.id === id) });
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
  );
}

/**
 * The same workspace on a second device: its record (same id, no files) stored there and opened, as
 * an Invite link or a restored backup would. Sync's first connect brings its files and sessions.
 */
async function adoptWorkspace(page: Page, record: unknown): Promise<void> {
  await page.evaluate(
    (workspace) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open("webcode");
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction(["workspaces", "settings"], "readwrite");
          tx.objectStore("workspaces").put({ ...(workspace as object), name: "Synced workspace" });
          tx.objectStore("settings").put({ key: "ui.lastWorkspaceId", value: (workspace as { id: string }).id });
          tx.oncomplete = () => {
            open.result.close();
            resolve();
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
    record,
  );
  await page.reload();
  await waitForWorkbench(page);
}

async function turnSyncOn(page: Page, url: string, token: string): Promise<void> {
  await page.getByRole("button", { name: "Settings", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await dialog.getByLabel("Sync server URL").fill(url);
  await dialog.getByRole("button", { name: "Set sync server URL" }).click();
  await dialog.getByLabel("Sync token").fill(token);
  await dialog.getByRole("button", { name: "Set sync token" }).click();
  await dialog.getByRole("switch", { name: "Sync this workspace" }).check();
  await expect.poll(() => dialog.getByRole("status", { name: "Sync status" }).innerText(), { timeout: 15_000 }).toContain("Connected");
  await dialog.getByRole("button", { name: "Close" }).click();
}

describe("sessions sync between two devices", () => {
  it("a turn sent on A streams into B's chat; B shows where it runs and holds Send; then B has the whole reply", async () => {
    const syncUrl = await startSyncServer();
    const server = await browser.startServer(
      scripted([
        {
          chunks: [
            { type: "text", text: "Streaming from device A. " },
            // Long enough for B to see the reply mid-way and its Send held, on a loaded machine too.
            { type: "delay", ms: 6_000 },
            { type: "text", text: "Finished on device A." },
          ],
        },
      ]),
    );
    const appA = await browser.openWithProvider(server);
    const a = appA.page;
    const workspace = await openWorkspace(a);
    const token = signRoomToken({ room: workspace.id, access: "write", secret: SYNC_SECRET });
    await turnSyncOn(a, syncUrl, token);

    const appB = await browser.openWithProvider(server);
    const b = appB.page;
    await adoptWorkspace(b, workspace.record);
    await turnSyncOn(b, syncUrl, token);

    await sendMessage(a, "Please fix the build");
    await expect.poll(() => transcript(a), { timeout: 15_000 }).toContain("Streaming from device A.");
    // B: the other person's message and the reply so far, while A's turn still runs.
    await expect.poll(() => transcript(b), { timeout: 10_000 }).toContain("Streaming from device A.");
    expect(await transcript(b)).toContain("Please fix the build");
    expect(await transcript(b)).not.toContain("Finished on device A.");
    await expect.poll(() => chat(b).getByRole("status").filter({ hasText: /Running on / }).count(), { timeout: 5_000 }).toBe(1);
    await chat(b).getByRole("textbox", { name: "Message" }).fill("Me too");
    expect(await chat(b).getByRole("button", { name: "Send" }).isDisabled()).toBe(true);

    await expect.poll(() => transcript(b), { timeout: 20_000 }).toContain("Finished on device A.");
    await expect.poll(() => chat(b).getByRole("status").filter({ hasText: /Running on / }).count(), { timeout: 20_000 }).toBe(0);
    // The reply B watched being written is not closed as interrupted there.
    expect(await chat(b).getByText(/interrupted|aborted|stopped before it finished/i).count()).toBe(0);
  });
});
