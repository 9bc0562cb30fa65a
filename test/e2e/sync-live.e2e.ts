// Live collaboration (issue 33 point 4) in real Chromium: two browser contexts (two people, each
// with their own IndexedDB) against the repository's sync server script on 127.0.0.1. A shares
// its workspace and invites B with a link; B is asked, joins, and both open README.md. A's typing
// appears in B's editor before any save, with A's cursor labelled with A's name; B's file tree
// shows that A has the file open. A read-only invitee's editor is read-only and says so.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { editorText, treeItem, waitForActiveTab, waitForWorkbench, useBrowser } from "../support/browser";
import { joinFromLink, startSharing } from "../support/sync-pair";
import { startSyncServerScript } from "../support/sync-server";

const browser = useBrowser();

async function openReadme(page: Page): Promise<void> {
  await expect.poll(() => treeItem(page, "README.md").count(), { timeout: 30_000 }).toBe(1);
  await treeItem(page, "README.md").dblclick();
  await waitForActiveTab(page, "README.md");
}

/** The label drawn after a remote cursor in the editor (y-monaco's head decoration, our CSS). */
function cursorLabels(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll(".monaco-host .yRemoteSelectionHead")].map((el) => getComputedStyle(el, "::after").content),
  );
}

describe("live collaboration", () => {
  it("A's keystrokes appear in B's editor with A's labelled cursor, and B's tree shows who has the file open", async () => {
    const server = await startSyncServerScript();
    browser.afterTest(() => server.stop());
    const a = await browser.open("?runtime=browser");
    await waitForWorkbench(a.page);
    const { link, room } = await startSharing(a.page, server, "Ann Lee");
    expect(link).toMatch(/#sync=[\w-]+$/);

    // The link is A's page address (with its ?runtime=browser) and the invite in the fragment.
    const b = await browser.open(link);
    await joinFromLink(b.page, room, server.url);
    await waitForWorkbench(b.page);
    // The invite is gone from B's address bar (it holds a token).
    expect(new URL(b.page.url()).hash).toBe("");
    await openReadme(a.page);
    await openReadme(b.page);

    await a.page.locator(".monaco-host .view-lines").click();
    await a.page.keyboard.press("Control+Home");
    await a.page.keyboard.type("Hello from Ann! ");
    await expect.poll(() => editorText(b.page), { timeout: 10_000 }).toContain("Hello from Ann!");
    await expect.poll(() => cursorLabels(b.page), { timeout: 10_000 }).toContainEqual('"Ann Lee"');
    await expect.poll(() => treeItem(b.page, "README.md").getByRole("img", { name: "Open by Ann Lee" }).count(), { timeout: 10_000 }).toBe(1);
    // And back: B types, A sees it.
    await b.page.locator(".monaco-host .view-lines").click();
    await b.page.keyboard.press("Control+End");
    await b.page.keyboard.type("Bob was here");
    await expect.poll(() => editorText(a.page), { timeout: 10_000 }).toContain("Bob was here");
    expect(a.errors).toEqual([]);
    expect(b.errors).toEqual([]);
  });

  it("a read-only invitee: the editor is read-only and says so, and A's typing still reaches it", async () => {
    const server = await startSyncServerScript();
    browser.afterTest(() => server.stop());
    const a = await browser.open("?runtime=browser");
    await waitForWorkbench(a.page);
    const { link, room } = await startSharing(a.page, server, "Ann", "read");
    const b = await browser.open(link);
    await joinFromLink(b.page, room, server.url, "read-only");
    await waitForWorkbench(b.page);
    await expect.poll(() => b.page.getByRole("status", { name: "Sync: Connected (read-only)" }).count(), { timeout: 10_000 }).toBe(1);
    await openReadme(b.page);
    await expect.poll(() => b.page.getByText(/Read-only: you joined this workspace with a read-only invitation/).count()).toBe(1);
    await openReadme(a.page);
    await a.page.locator(".monaco-host .view-lines").click();
    await a.page.keyboard.press("Control+Home");
    await a.page.keyboard.type("Only Ann types. ");
    await expect.poll(() => editorText(b.page), { timeout: 10_000 }).toContain("Only Ann types.");
    // B's keystrokes do nothing in a read-only editor.
    await b.page.locator(".monaco-host .view-lines").click();
    await b.page.keyboard.type("zzz");
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await editorText(b.page)).not.toContain("zzz");
    expect(await editorText(a.page)).not.toContain("zzz");
  });
});
