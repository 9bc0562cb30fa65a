// Storage quota exhaustion in a real browser, with Chromium's own quota (Storage.overrideQuotaForOrigin
// through CDP, set before the app opens its database): the terminal, the editor's save and the
// agent's write fail honestly ("No space left on device"); nothing unstored is shown as saved; a
// reload asks first, opens the app with the storage banner, and the way out works (sizes, export,
// retry once space is back).
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import {
  MOD,
  editorText,
  openWithQuota,
  runInTerminal,
  terminalText,
  treeItem,
  waitForActiveTab,
  waitForTerminal,
  waitForWorkbench,
} from "../support/browser";
import { FAKE_KEY, chat, configureProvider, scripted, sendMessage, transcript, useAgentBrowser } from "./agent-helpers";

const browser = useAgentBrowser();

/** The origin's quota, set before the app opens its database (Chromium applies it to IndexedDB from then on). */
const QUOTA = 16 * 1024 * 1024;


/**
 * Uses up the rest of the quota, as other data of the site would: random (incompressible) records
 * in a database of its own, ever smaller until even 16 bytes are refused.
 */
async function fillStorage(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open("filler", 1);
      request.onupgradeneeded = () => request.result.createObjectStore("chunks");
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const put = (size: number, key: number) =>
      new Promise<boolean>((resolve) => {
        const bytes = new Uint8Array(size);
        for (let i = 0; i < size; i += 65536) crypto.getRandomValues(bytes.subarray(i, Math.min(size, i + 65536)));
        try {
          const tx = db.transaction("chunks", "readwrite");
          tx.objectStore("chunks").put(bytes, key);
          tx.oncomplete = () => resolve(true);
          tx.onabort = () => resolve(false);
        } catch {
          resolve(false);
        }
      });
    let key = 0;
    for (const size of [1 << 20, 1 << 18, 1 << 16, 1 << 14, 1 << 12, 1 << 10, 256, 64, 16]) {
      while (await put(size, key++)) {
        // keep filling at this size
      }
    }
    db.close();
  });
}

/** Space comes back (the other data is deleted). */
async function freeFiller(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve, reject) => {
        const request = indexedDB.deleteDatabase("filler");
        request.onsuccess = () => resolve();
        request.onerror = () => reject(request.error);
      }),
  );
}

/** What the app's IndexedDB holds for a path (undefined when there is no record). */
function storedFile(page: Page, path: string): Promise<string | undefined> {
  return page.evaluate(
    (wanted) =>
      new Promise<string | undefined>((resolve) => {
        const request = indexedDB.open("webcode");
        request.onsuccess = () => {
          const all = request.result.transaction("files").objectStore("files").getAll();
          all.onsuccess = () => {
            const record = (all.result as Array<{ path: string; data: unknown }>).find((r) => r.path === wanted);
            resolve(record === undefined ? undefined : typeof record.data === "string" ? record.data : "(bytes)");
            request.result.close();
          };
        };
      }),
    path,
  );
}

describe("storage quota", () => {
  it("agent write, terminal and editor save fail like a full disk; a reload asks first, opens the app and shows the way out", async () => {
    const server = await browser.startServer(
      scripted([
        { chunks: [{ type: "tool-call", name: "write", input: { filePath: "data.txt", content: "agent data\n" } }] },
        { chunks: [{ type: "text", text: "Wrote data.txt." }] },
      ]),
      { requireKey: FAKE_KEY },
    );
    const app = await openWithQuota(browser, QUOTA);
    const { page } = app;
    await waitForWorkbench(page);
    await waitForTerminal(page);
    await waitForActiveTab(page, "README.md");
    await configureProvider(page, { baseUrl: server.url, edits: "ask" });

    // The agent asks to write; meanwhile the site's storage fills up.
    await sendMessage(page, "Write data.txt");
    const card = chat(page).getByRole("group", { name: "The agent wants to change files" });
    await expect.poll(() => card.count(), { timeout: 30_000 }).toBe(1);
    await fillStorage(page);
    await card.getByRole("button", { name: "Allow once" }).click();
    // The write fails and the chat says so; the turn stops (its records cannot be stored either).
    await expect.poll(() => transcript(page), { timeout: 30_000 }).toContain("No space left on device");
    await expect.poll(() => transcript(page)).toMatch(/The chat could not be saved: this site's browser storage is full/);
    expect(await transcript(page)).not.toContain("Wrote data.txt.");
    expect(await treeItem(page, "data.txt").count()).toBe(0);
    expect(await storedFile(page, "data.txt")).toBeUndefined();
    const banner = page.getByRole("alert", { name: "Storage full" });
    await expect.poll(() => banner.count(), { timeout: 10_000 }).toBe(1);

    // A terminal command whose write cannot be stored: an error where it was made, a non-zero exit, no file.
    await runInTerminal(page, "echo hello > new.txt");
    await expect.poll(() => terminalText(page), { timeout: 20_000 }).toContain("No space left on device");
    await runInTerminal(page, "echo exit=$?");
    await expect.poll(() => terminalText(page), { timeout: 20_000 }).toMatch(/exit=\d+/);
    const terminal = await terminalText(page);
    expect(terminal).toContain("No space left on device");
    expect(terminal).not.toContain("exit=0");
    await expect.poll(() => treeItem(page, "new.txt").count()).toBe(0);
    expect(await storedFile(page, "new.txt")).toBeUndefined();

    // The editor's save fails, says so, and keeps the tab dirty.
    await treeItem(page, "README.md").click();
    await waitForActiveTab(page, "README.md");
    await page.locator(".monaco-host .view-lines").click();
    await page.keyboard.press(`${MOD}+End`);
    await page.keyboard.type(" kept in the editor");
    await page.keyboard.press(`${MOD}+s`);
    const saveError = page.getByRole("alert").filter({ hasText: /Could not save README\.md/ });
    await expect.poll(() => saveError.count(), { timeout: 15_000 }).toBeGreaterThan(0);
    expect(await saveError.first().innerText()).toContain("No space left on device");
    const tab = page.getByRole("tablist", { name: "Open files" }).getByRole("tab", { name: "README.md, unsaved changes" });
    await expect.poll(() => tab.count()).toBe(1);
    expect(await storedFile(page, "README.md")).not.toContain("kept in the editor");
    // Told before anything can be lost: the status bar counts it, the tree marks the file.
    await expect.poll(() => page.getByRole("status").filter({ hasText: "1 unsaved change" }).count()).toBe(1);
    expect(await treeItem(page, "README.md").getAttribute("aria-description")).toBe("unsaved changes");

    // Leaving asks first.
    const asked: string[] = [];
    page.on("dialog", (dialog) => {
      asked.push(dialog.type());
      void dialog.accept();
    });
    await page.reload();
    expect(asked).toContain("beforeunload");

    // Still full: the app opens anyway, with the banner and the way out.
    await waitForWorkbench(page);
    await expect.poll(() => banner.count(), { timeout: 20_000 }).toBe(1);
    expect(await banner.innerText()).toMatch(/read-only for now: files, chats and settings cannot be saved/);
    await banner.getByRole("button", { name: "Retry" }).click();
    await expect.poll(() => banner.innerText()).toContain("Storage is still full.");
    await banner.getByRole("button", { name: "Free space…" }).click();
    const dialog = page.getByRole("dialog", { name: "Free up storage" });
    const table = dialog.getByRole("table", { name: "Storage used per workspace" });
    await expect.poll(() => table.getByRole("row").count(), { timeout: 15_000 }).toBe(2);
    expect(await table.getByRole("row").nth(1).innerText()).toMatch(/My workspace[\s\S]*\d+(\.\d)? (B|KB|MB)[\s\S]*\(1\)/);
    const download = page.waitForEvent("download");
    await dialog.getByRole("button", { name: 'Export "My workspace" as zip' }).click();
    expect((await download).suggestedFilename()).toMatch(/\.zip$/);
    await dialog.getByRole("button", { name: /^Delete the sessions of "My workspace"/ }).click();
    await page.getByRole("button", { name: "Delete sessions", exact: true }).click();
    await expect.poll(() => dialog.getByRole("status").filter({ hasText: 'Deleted the sessions of "My workspace".' }).count(), { timeout: 15_000 }).toBe(1);
    expect(await table.getByRole("row").nth(1).innerText()).toMatch(/\(0\)/);
    expect(await dialog.getByRole("button", { name: /^Delete the workspace "My workspace"/ }).count()).toBe(1);
    // The space the sessions took is free again: the browser accepts data, so the banner goes.
    await expect.poll(() => banner.count(), { timeout: 10_000 }).toBe(0);
    await dialog.getByRole("button", { name: "Close" }).click();

    // With more space back, saving works again.
    await freeFiller(page);
    await page.locator(".monaco-host .view-lines").click();
    await page.keyboard.press(`${MOD}+End`);
    await page.keyboard.type(" and stored");
    await page.keyboard.press(`${MOD}+s`);
    await expect.poll(() => storedFile(page, "README.md"), { timeout: 15_000 }).toContain("and stored");
    expect(await editorText(page)).toContain("and stored");
    expect(app.errors).toEqual([]);
  });
});
