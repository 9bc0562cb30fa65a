// Storage quota exhaustion in a real browser: a save the browser refuses to store tells the user,
// keeps the edit in memory, corrupts nothing, and is written once the browser accepts data again.
import { describe, expect, it } from "vitest";
import { MOD, createFileFromTree, editorText, runInTerminal, terminalText, treeItem, waitForActiveTab, waitForTerminal, waitForWorkbench, useBrowser } from "../support/browser";

const browser = useBrowser();

describe("storage quota", () => {
  it("tells the user when a save cannot be stored, keeps the edit, and stores it once space is back", async () => {
    const app = await browser.open();
    const { page } = app;
    await waitForWorkbench(page);
    await waitForTerminal(page);
    await createFileFromTree(page, "notes.txt");
    await waitForActiveTab(page, "notes.txt");
    await page.locator(".monaco-host .view-lines").click();
    await page.keyboard.type("first version");
    await page.keyboard.press(`${MOD}+s`);
    await expect.poll(() => page.getByRole("tab", { name: "notes.txt", exact: true }).count()).toBe(1);

    // From now on the browser refuses every write to IndexedDB, as it does when the quota is used up.
    await page.evaluate(() => {
      const original = IDBObjectStore.prototype.put;
      (window as unknown as { restorePut: () => void }).restorePut = () => {
        IDBObjectStore.prototype.put = original;
      };
      IDBObjectStore.prototype.put = function () {
        throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
      };
    });
    await page.locator(".monaco-host .view-lines").click();
    await page.keyboard.press("End");
    await page.keyboard.type(" and more");
    await page.keyboard.press(`${MOD}+s`);

    const alert = page.getByRole("alert").filter({ hasText: /storage quota exceeded/i });
    await expect.poll(() => alert.count(), { timeout: 15_000 }).toBeGreaterThan(0);
    // The edit is still in the workspace (the terminal reads the in-memory files).
    await runInTerminal(page, "cat notes.txt");
    await expect.poll(() => terminalText(page), { timeout: 15_000 }).toContain("first version and more");

    // Space is back: the pending change is written on the next change and survives a reload.
    await page.evaluate(() => (window as unknown as { restorePut: () => void }).restorePut());
    await runInTerminal(page, "touch other.txt");
    await expect.poll(() => treeItem(page, "other.txt").count(), { timeout: 15_000 }).toBe(1);
    const stored = () =>
      page.evaluate(
        () =>
          new Promise<string>((resolve) => {
            const request = indexedDB.open("webcode");
            request.onsuccess = () => {
              const all = request.result.transaction("files").objectStore("files").getAll();
              all.onsuccess = () => {
                const record = (all.result as Array<{ path: string; data: unknown }>).find((r) => r.path === "notes.txt");
                resolve(typeof record?.data === "string" ? record.data : "");
                request.result.close();
              };
            };
          }),
      );
    await expect.poll(stored, { timeout: 15_000 }).toContain("first version and more");
    await page.reload();
    await waitForWorkbench(page);
    await treeItem(page, "notes.txt").click();
    await waitForActiveTab(page, "notes.txt");
    await expect.poll(() => editorText(page), { timeout: 15_000 }).toContain("first version and more");
  });
});
