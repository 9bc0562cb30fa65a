// Nothing lost: the first change of the user's work asks the browser to keep webcode's storage and
// says why; when the browser says no, the status bar says storage is not persistent.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { createFileFromTree, waitForWorkbench, useBrowser } from "../support/browser";

const browser = useBrowser();

async function openWithPersistence(grant: boolean) {
  const app = await browser.open();
  await app.context.addInitScript((granted) => {
    const log: string[] = [];
    (window as Window & { __persistCalls?: string[] }).__persistCalls = log;
    let current = false;
    Object.defineProperty(navigator.storage, "persisted", { value: async () => (log.push("persisted"), current) });
    Object.defineProperty(navigator.storage, "persist", { value: async () => (log.push("persist"), (current = granted)) });
  }, grant);
  await app.page.reload();
  await waitForWorkbench(app.page);
  return app;
}

const persistCalls = (page: Page) => page.evaluate(() => (window as Window & { __persistCalls?: string[] }).__persistCalls ?? []);

describe("persistent storage", () => {
  it("asks on the first change, explains why, and shows when the browser refuses", async () => {
    const { page, errors } = await openWithPersistence(false);
    // Looking around asks nothing.
    expect(await persistCalls(page)).not.toContain("persist");
    expect(await page.locator(".status-bar").innerText()).toContain("Storage not persistent");
    await createFileFromTree(page, "notes.txt");
    await expect.poll(() => persistCalls(page)).toContain("persist");
    await expect.poll(() => page.getByText("webcode asks your browser to keep its storage").count()).toBe(1);
    await expect.poll(() => page.locator(".status-bar").innerText()).toContain("Storage not persistent");
    await createFileFromTree(page, "more.txt");
    expect((await persistCalls(page)).filter((c) => c === "persist")).toHaveLength(1);
    expect(errors).toEqual([]);
  });

  it("says nothing in the status bar once the browser grants it", async () => {
    const { page } = await openWithPersistence(true);
    await createFileFromTree(page, "notes.txt");
    await expect.poll(() => persistCalls(page)).toContain("persist");
    await expect.poll(() => page.locator(".status-bar").innerText()).not.toContain("Storage not persistent");
  });
});
