// Import and export in a real browser (built app, headless Chromium, browser runtime): the zip of a
// real public project through the file picker into a new workspace, an edit in Monaco, and an
// export whose bytes match the original except the edit; cancelling an import leaves nothing.
import { readFile } from "node:fs/promises";
import { strFromU8, unzipSync, zipSync } from "fflate";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { githubArchiveOf } from "../fixtures/github-archive";
import { MOD, baseUrl, editorText, treeItem, waitForActiveTab, waitForWorkbench, useBrowser, storedWorkspaceNames } from "../support/browser";

const browser = useBrowser();

/** Picks a zip with the "Import zip" button's file chooser. */
async function pickZip(page: Page, name: string, bytes: Uint8Array): Promise<void> {
  const [chooser] = await Promise.all([page.waitForEvent("filechooser"), page.getByRole("button", { name: "Import zip" }).click()]);
  await chooser.setFiles({ name, mimeType: "application/zip", buffer: Buffer.from(bytes) });
}

describe("import and export", () => {
  it("imports a GitHub archive through the file picker, edits a file in Monaco and exports the same bytes plus the edit", async () => {
    const archive = githubArchiveOf("zustand");
    const app = await browser.open();
    const { page } = app;
    await waitForWorkbench(page);

    await pickZip(page, `${archive.root}.zip`, archive.zip);
    const dialog = page.getByRole("dialog", { name: "Import" });
    await expect.poll(() => dialog.count()).toBe(1);
    expect(await dialog.getByRole("radio", { name: "A new workspace" }).isChecked()).toBe(true);
    expect(await dialog.getByRole("textbox", { name: "Workspace name" }).inputValue()).toBe(archive.root);
    expect(await dialog.getByRole("checkbox", { name: "Keep node_modules" }).isChecked()).toBe(false);
    await dialog.getByRole("button", { name: "Import" }).click();

    // The new workspace opens with the project's files and its README.
    await expect.poll(() => explorerTitle(page), { timeout: 30_000 }).toBe(archive.root);
    await expect.poll(() => treeItem(page, "package.json").count(), { timeout: 30_000 }).toBe(1);
    await expect.poll(() => treeItem(page, "LICENSE").count()).toBe(1);
    await expect.poll(() => page.getByText(`Imported ${archive.files.size} files`).count()).toBe(1);
    expect(await storedWorkspaceNames(page)).toContain(archive.root);
    await waitForActiveTab(page, "README.md");
    await expect.poll(() => editorText(page), { timeout: 15_000 }).toContain("zustand");

    // Edit at the very end of README.md and save.
    await page.locator(".monaco-host .view-lines").click();
    await page.keyboard.press(`${MOD}+End`);
    await page.keyboard.type("Edited in webcode");
    await page.keyboard.press(`${MOD}+s`);
    await expect.poll(() => page.getByRole("tab", { name: "README.md", exact: true }).count()).toBe(1);

    await page.getByRole("button", { name: "Export zip" }).click();
    const exportDialog = page.getByRole("dialog", { name: "Export zip" });
    await expect.poll(() => exportDialog.getByRole("combobox", { name: "What to export" }).isEnabled()).toBe(true);
    const [download] = await Promise.all([page.waitForEvent("download"), exportDialog.getByRole("button", { name: "Download zip" }).click()]);
    expect(download.suggestedFilename()).toBe(`${archive.root}.zip`);
    const exported = unzipSync(new Uint8Array(await readFile((await download.path())!)));

    const prefix = `${archive.root}/`;
    const files = new Map(Object.entries(exported).filter(([name]) => !name.endsWith("/")).map(([name, bytes]) => [name.slice(prefix.length), bytes]));
    expect(Object.keys(exported).every((name) => name.startsWith(prefix))).toBe(true);
    expect([...files.keys()].sort()).toEqual([...archive.files.keys()].sort());
    for (const [path, original] of archive.files) {
      if (path === "README.md") continue;
      expect(Buffer.from(files.get(path)!).equals(Buffer.from(original)), path).toBe(true);
    }
    expect(strFromU8(files.get("README.md")!)).toBe(`${strFromU8(archive.files.get("README.md")!)}Edited in webcode`);
    expect(app.errors).toEqual([]);
  });

  it("imports a zip dropped on the file tree (the drop zone covers the tree while files are dragged)", async () => {
    const app = await browser.open();
    const { page } = app;
    await waitForWorkbench(page);
    const zip = zipSync({ "dropped-main/src/index.ts": new TextEncoder().encode("export {};\n"), "dropped-main/README.md": new TextEncoder().encode("# Dropped\n") });
    const data = await page.evaluateHandle((bytes) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([new Uint8Array(bytes)], "dropped-main.zip", { type: "application/zip" }));
      return transfer;
    }, [...zip]);
    const tree = page.getByRole("tree", { name: "Files" });
    await tree.dispatchEvent("dragenter", { dataTransfer: data });
    // While a drag is in progress the browser repeats dragover every ~50 ms (the zone hides 300 ms
    // after the last one); keep them coming until the drop, so a busy machine cannot end the drag.
    const dragging = await page.evaluateHandle((transfer) => {
      const target = document.querySelector('[role="tree"][aria-label="Files"]')!;
      const send = () => target.dispatchEvent(new DragEvent("dragover", { bubbles: true, cancelable: true, dataTransfer: transfer }));
      send();
      return window.setInterval(send, 50);
    }, data);
    const zone = page.getByRole("region", { name: "Drop to import" });
    await expect.poll(() => zone.count()).toBe(1);
    // The zone lies over the tree's pane.
    const [zoneBox, treeBox] = await Promise.all([zone.boundingBox(), tree.boundingBox()]);
    expect(zoneBox!.x).toBeLessThanOrEqual(treeBox!.x);
    expect(zoneBox!.x + zoneBox!.width).toBeGreaterThanOrEqual(treeBox!.x + treeBox!.width);
    await zone.dispatchEvent("dragover", { dataTransfer: data });
    await page.evaluate((timer) => window.clearInterval(timer), dragging);
    await zone.dispatchEvent("drop", { dataTransfer: data });
    const dialog = page.getByRole("dialog", { name: "Import" });
    await expect.poll(() => dialog.count()).toBe(1);
    expect(await dialog.innerText()).toContain("From the zip dropped-main.zip");
    await dialog.getByRole("button", { name: "Import" }).click();
    await expect.poll(() => explorerTitle(page), { timeout: 30_000 }).toBe("dropped-main");
    await expect.poll(() => treeItem(page, "src").count()).toBe(1);
    expect(await zone.count()).toBe(0);
    expect(app.errors).toEqual([]);
  });

  it("asks to import the zip of #import=<url> on load, removes the fragment and imports it", async () => {
    const zipUrl = "https://codeload.github.com/example/linked-project/zip/refs/heads/main";
    const zip = zipSync({ "linked-project-main/index.js": new TextEncoder().encode("console.log(1);\n") });
    const context = await browser.chromium().newContext({ viewport: { width: 1440, height: 900 } });
    // Served by the test (no network): the page's own fetch, with the CORS header a zip host sends.
    await context.route(zipUrl, (route) => route.fulfill({ status: 200, body: Buffer.from(zip), headers: { "content-type": "application/zip", "access-control-allow-origin": "*" } }));
    const page = await context.newPage();
    const app = browser.track({ context, page, errors: [] });
    page.on("pageerror", (error) => app.errors.push(error.message));
    await page.goto(new URL(`?runtime=browser#import=${encodeURIComponent(zipUrl)}`, baseUrl()).toString());
    await waitForWorkbench(page);
    const dialog = page.getByRole("dialog", { name: "Import" });
    await expect.poll(() => dialog.count(), { timeout: 15_000 }).toBe(1);
    expect(page.url()).not.toContain("import=");
    // Asked first, naming the host; nothing is downloaded before "Download".
    expect(await dialog.innerText()).toContain("Download a zip from codeload.github.com?");
    await dialog.getByRole("button", { name: "Download" }).click();
    await expect.poll(() => dialog.innerText(), { timeout: 15_000 }).toContain(`From the link ${zipUrl}`);
    expect(await dialog.getByRole("textbox", { name: "Workspace name" }).inputValue()).toBe("linked-project");
    await dialog.getByRole("button", { name: "Import" }).click();
    await expect.poll(() => explorerTitle(page), { timeout: 30_000 }).toBe("linked-project");
    await expect.poll(() => treeItem(page, "index.js").count()).toBe(1);
    expect(app.errors).toEqual([]);
  });

  it("shows the import progress bar and cancels an import, leaving no workspace behind", async () => {
    // Slow enough to watch and cancel: many files, and a CPU slowed down 20 times.
    const app = await browser.open();
    const { page } = app;
    await waitForWorkbench(page);
    const before = await storedWorkspaceNames(page);
    const big = bigArchive(15_000);
    const cdp = await page.context().newCDPSession(page);
    await pickZip(page, "big-main.zip", big);
    const dialog = page.getByRole("dialog", { name: "Import" });
    await expect.poll(() => dialog.count()).toBe(1);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 20 });
    await dialog.getByRole("button", { name: "Import" }).click();
    const progress = page.getByRole("progressbar", { name: "Import progress" });
    await expect.poll(() => progress.count(), { timeout: 10_000 }).toBe(1);
    // Caught part-way through saving: files and bytes counted against their totals.
    await expect.poll(() => dialog.innerText(), { timeout: 30_000 }).toMatch(/Saving [1-9][\d,]* of 15,000 files · [\d.]+ (KB|MB) of [\d.]+ MB/);
    expect(Number(await progress.getAttribute("aria-valuenow"))).toBeGreaterThan(0);
    await dialog.screenshot({ path: "test-results/import-progress.png" });
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
    await expect.poll(() => page.getByText("Import cancelled. Nothing was imported.").count(), { timeout: 20_000 }).toBe(1);
    expect(await dialog.count()).toBe(0);
    expect(await storedWorkspaceNames(page)).toEqual(before);
  });
});

/** A GitHub-shaped zip with many small text files (distinct contents, so nothing looks like a bomb). */
function bigArchive(count: number): Uint8Array {
  const tree: Record<string, Uint8Array> = {};
  const encoder = new TextEncoder();
  for (let i = 0; i < count; i++) tree[`big-main/src/dir${i % 40}/file${i}.ts`] = encoder.encode(`export const value${i} = ${i * 7919};\n// ${"x".repeat(i % 200)}\n`);
  return zipSync(tree, { level: 6 });
}

/** The open workspace's name, as the file tree's heading shows it. */
function explorerTitle(page: Page): Promise<string> {
  return page.getByRole("region", { name: "Explorer" }).getByRole("heading").evaluate((h) => h.textContent ?? "").catch(() => "");
}
