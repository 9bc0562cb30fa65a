// Hostile zips in a real browser: zip-slip, a zip bomb, a symlink and a corrupt file are refused
// with an error that says why, and no workspace is created or changed.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { buildZip } from "../support/zip-builder";
import { treeItem, waitForWorkbench, useBrowser } from "../support/browser";

const browser = useBrowser();

async function pickZip(page: Page, name: string, bytes: Uint8Array): Promise<void> {
  const [chooser] = await Promise.all([page.waitForEvent("filechooser"), page.getByRole("button", { name: "Import zip" }).click()]);
  await chooser.setFiles({ name, mimeType: "application/zip", buffer: Buffer.from(bytes) });
}

/** Every stored workspace with its stored file paths (the app's IndexedDB), to compare before and after. */
async function storedState(page: Page): Promise<string> {
  return page.evaluate(
    () =>
      new Promise<string>((resolve, reject) => {
        const open = indexedDB.open("webcode");
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction(["workspaces", "files"]);
          const workspaces = tx.objectStore("workspaces").getAll();
          const files = tx.objectStore("files").getAll();
          tx.oncomplete = () => {
            const names = (workspaces.result as Array<{ id: string; name: string }>).map((w) => w.name).sort();
            const paths = (files.result as Array<{ workspaceId: string; path: string }>).map((f) => `${f.workspaceId}:${f.path}`).sort();
            open.result.close();
            resolve(JSON.stringify({ names, paths }));
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
  );
}

const HOSTILE: Array<{ label: string; name: string; zip: () => Uint8Array; message: RegExp }> = [
  {
    label: "zip-slip",
    name: "slip.zip",
    zip: () => buildZip([{ name: "p/ok.txt", data: "fine" }, { name: "p/../../evil.sh", data: "echo owned" }]),
    message: /points outside its folder.*zip-slip/,
  },
  {
    label: "zip bomb",
    name: "bomb.zip",
    zip: () => buildZip([{ name: "zeros.bin", data: new Uint8Array(20 * 1024 * 1024) }]),
    message: /expands more than 100:1.*zip bombs/,
  },
  {
    label: "symlink",
    name: "link.zip",
    zip: () => buildZip([{ name: "p/a.txt", data: "a" }, { name: "p/link", data: "/etc/passwd", method: 0, unixMode: 0o120777 }]),
    message: /symbolic link|symlink/i,
  },
  {
    label: "corrupt",
    name: "broken.zip",
    zip: () => {
      const good = buildZip([{ name: "p/a.txt", data: "hello ".repeat(200) }]);
      return good.slice(0, good.length - 30);
    },
    message: /damaged|corrupt|truncated|not a zip|cut off/i,
  },
];

describe("hostile zips", () => {
  it("refuses zip-slip, a bomb, a symlink and a corrupt zip straight away (no options first) and changes nothing", async () => {
    const app = await browser.open();
    const { page } = app;
    await waitForWorkbench(page);
    await expect.poll(() => treeItem(page, "README.md").count()).toBe(1);
    const before = await storedState(page);
    for (const hostile of HOSTILE) {
      await pickZip(page, hostile.name, hostile.zip());
      const failed = page.getByRole("dialog", { name: "Import failed" });
      await expect.poll(() => failed.count(), { timeout: 20_000 }).toBe(1);
      // The options step was never shown: validation runs before it.
      expect(await page.getByRole("radio", { name: /The current workspace/ }).count(), hostile.label).toBe(0);
      const message = await failed.getByRole("alert").innerText();
      expect(message, hostile.label).toMatch(hostile.message);
      expect(await failed.innerText()).toContain("Nothing was imported; your workspaces are unchanged.");
      await failed.getByRole("button", { name: "Close" }).click();
      await expect.poll(() => failed.count()).toBe(0);
      expect(await storedState(page), hostile.label).toBe(before);
    }
    // The tree shows the same workspace and files as before.
    expect(await treeItem(page, "README.md").count()).toBe(1);
    expect(await page.getByRole("tree", { name: "Files" }).getByRole("treeitem").count()).toBe(1);
    expect(app.errors).toEqual([]);
  });

  it("shows a text-direction character in an entry name as ⟨U+202E⟩ and keeps the message in reading order", async () => {
    const app = await browser.open();
    const { page } = app;
    await waitForWorkbench(page);
    await pickZip(page, "rtl.zip", buildZip([{ name: "p/ok.txt", data: "ok" }, { name: "p/evil\u202Etxt.exe", data: "x" }]));
    const alert = page.getByRole("dialog", { name: "Import failed" }).getByRole("alert");
    await expect.poll(() => alert.count(), { timeout: 20_000 }).toBe(1);
    const text = await alert.innerText();
    expect(text).toMatch(/^The entry "p\/evil⟨U\+202E⟩txt\.exe" has a name that contains an invisible or text-direction character/);
    expect(text).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
    expect(await alert.locator("bdi").count()).toBe(1);
    expect(app.errors).toEqual([]);
  });
});

describe("#import= links", () => {
  for (const [label, target, message] of [
    ["javascript:", "javascript:alert(1)", /Only http and https links can be imported/],
    ["an unreachable server", "http://127.0.0.1:9/project.zip", /could not be downloaded/],
  ] as const) {
    it(`pasted into an open tab: ${label} is refused without the options (a download after asking)`, async () => {
      const app = await browser.open();
      const { page } = app;
      await waitForWorkbench(page);
      const before = await storedState(page);
      await page.evaluate(() => {
        const marked = window as { __sameDocument?: boolean; __alerted?: boolean };
        marked.__sameDocument = true;
        window.alert = () => (marked.__alerted = true);
      });
      await page.evaluate((link) => (location.hash = `import=${encodeURIComponent(link)}`), target);
      if (target.startsWith("http")) {
        // A download is asked about first, naming the host (a loopback one with a warning).
        const ask = page.getByRole("dialog", { name: "Import" });
        await expect.poll(() => ask.count(), { timeout: 20_000 }).toBe(1);
        expect(await ask.innerText()).toMatch(/Download a zip from 127\.0\.0\.1(:9)?\?/);
        await ask.getByRole("button", { name: "Download" }).click();
      }
      const failed = page.getByRole("dialog", { name: "Import failed" });
      await expect.poll(() => failed.count(), { timeout: 20_000 }).toBe(1);
      expect(await page.evaluate(() => (window as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
      expect(await page.getByRole("radio", { name: /The current workspace/ }).count()).toBe(0);
      expect(await failed.getByRole("alert").innerText()).toMatch(message);
      expect(page.url()).not.toContain("import=");
      expect(await page.evaluate(() => (window as { __alerted?: boolean }).__alerted)).toBeUndefined();
      await failed.getByRole("button", { name: "Close" }).click();
      expect(await storedState(page)).toBe(before);
      expect(app.errors).toEqual([]);
    });
  }
});
