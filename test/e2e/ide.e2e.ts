// The IDE shell in a real browser (built app, headless Chromium, browser runtime): files, editor,
// terminal, workspaces, the runtime fallback notice and the storage error screen.
import { describe, expect, it } from "vitest";
import {
  MOD,
  createFileFromTree,
  editorText,
  runInTerminal,
  terminalText,
  treeItem,
  waitForActiveTab,
  waitForTerminal,
  waitForWorkbench,
  useBrowser,
} from "../support/browser";

const browser = useBrowser();

describe("IDE shell", () => {
  it("creates a file in the tree, edits and saves it, cats it in the terminal, and finds it after a reload", async () => {
    const app = await browser.open();
    const { page } = app;
    await waitForWorkbench(page);
    await waitForTerminal(page);
    // First run: the starter README is there and open.
    await expect.poll(() => treeItem(page, "README.md").count()).toBe(1);
    await waitForActiveTab(page, "README.md");

    await createFileFromTree(page, "hello.txt");
    await waitForActiveTab(page, "hello.txt");
    await page.locator(".monaco-host .view-lines").click();
    await page.keyboard.type("Hello from Monaco");
    await expect.poll(() => page.getByRole("tab", { name: "hello.txt, unsaved changes" }).count()).toBe(1);
    await page.keyboard.press(`${MOD}+s`);
    await expect.poll(() => page.getByRole("tab", { name: "hello.txt", exact: true }).count()).toBe(1);

    await runInTerminal(page, "cat hello.txt");
    await expect.poll(() => terminalText(page), { timeout: 15_000 }).toContain("Hello from Monaco");

    await page.reload();
    await waitForWorkbench(page);
    await treeItem(page, "hello.txt").click();
    await waitForActiveTab(page, "hello.txt");
    await expect.poll(() => editorText(page), { timeout: 15_000 }).toContain("Hello from Monaco");
    expect(app.errors).toEqual([]);
  });

  it("shows changes made in the terminal in the tree and in an open editor tab", async () => {
    const app = await browser.open();
    const { page } = app;
    await waitForWorkbench(page);
    await waitForTerminal(page);
    await waitForActiveTab(page, "README.md");
    await runInTerminal(page, "mkdir notes && echo fresh text > notes/todo.md && echo replaced > README.md");
    await expect.poll(() => treeItem(page, "notes").count(), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => editorText(page), { timeout: 15_000 }).toContain("replaced");
    await treeItem(page, "notes").click();
    await expect.poll(() => treeItem(page, "todo.md").count()).toBe(1);
  });

  it("refuses an invalid file name and says why", async () => {
    const app = await browser.open();
    const { page } = app;
    await waitForWorkbench(page);
    await page.getByRole("button", { name: "New file" }).click();
    const input = page.getByRole("textbox", { name: "Name" });
    await input.fill("bad:name.txt");
    await expect.poll(() => page.getByRole("tree", { name: "Files" }).getByRole("alert").innerText()).toMatch(/not allowed/);
    await input.press("Enter");
    // Still editing: nothing was created.
    await expect.poll(() => input.count()).toBe(1);
    expect(await treeItem(page, "bad:name.txt").count()).toBe(0);
    await input.fill("README.md");
    await expect.poll(() => page.getByRole("tree", { name: "Files" }).getByRole("alert").innerText()).toMatch(/already exists/);
    await input.press("Escape");
    await expect.poll(() => input.count()).toBe(0);
  });

  it("cancels a running terminal command with Ctrl-C", async () => {
    const app = await browser.open();
    const { page } = app;
    await waitForWorkbench(page);
    await waitForTerminal(page);
    await runInTerminal(page, "sleep 60");
    // Give the command a moment to start, then interrupt it.
    await expect.poll(() => terminalText(page)).toContain("sleep 60");
    const started = Date.now();
    await page.keyboard.press("Control+c");
    await expect.poll(() => terminalText(page), { timeout: 10_000 }).toMatch(/\^C[\s\S]*\$\s*$/);
    expect(Date.now() - started).toBeLessThan(10_000);
    await runInTerminal(page, "echo still-alive");
    await expect.poll(() => terminalText(page), { timeout: 10_000 }).toMatch(/still-alive[\s\S]*still-alive/);
  });

  it("on the plain URL, Ctrl-C stops `sleep 30` and a busy loop at once and the next command runs", async () => {
    const app = await browser.open("");
    const { page } = app;
    await waitForWorkbench(page);
    await waitForTerminal(page);
    await runInTerminal(page, "sleep 30");
    await expect.poll(() => terminalText(page)).toContain("sleep 30");
    let pressed = Date.now();
    await page.keyboard.press("Control+c");
    await runInTerminal(page, "echo ok-after-sleep");
    await expect.poll(() => terminalText(page), { timeout: 10_000 }).toMatch(/^ok-after-sleep$/m);
    expect(Date.now() - pressed).toBeLessThan(3_000);

    // A loop that never waits: the page still takes the key, and the loop stops using time.
    await runInTerminal(page, "while true; do :; done");
    await expect.poll(() => terminalText(page)).toContain("while true; do :; done");
    await new Promise((resolve) => setTimeout(resolve, 300));
    pressed = Date.now();
    await page.keyboard.press("Control+c");
    await runInTerminal(page, "echo ok-after-loop");
    await expect.poll(() => terminalText(page), { timeout: 10_000 }).toMatch(/^ok-after-loop$/m);
    expect(Date.now() - pressed).toBeLessThan(3_000);
    const busy = await page.evaluate(async () => {
      const started = performance.now();
      await new Promise((resolve) => setTimeout(resolve, 200));
      return performance.now() - started;
    });
    expect(busy).toBeLessThan(400);
  });

  it("renames with F2, deletes with Delete (confirmed) and closes the deleted file's tab", async () => {
    const app = await browser.open();
    const { page } = app;
    await waitForWorkbench(page);
    await createFileFromTree(page, "draft.md");
    await waitForActiveTab(page, "draft.md");
    await treeItem(page, "draft.md").click();
    await page.keyboard.press("F2");
    const input = page.getByRole("textbox", { name: "Name" });
    await input.fill("final.md");
    await input.press("Enter");
    await expect.poll(() => treeItem(page, "final.md").count()).toBe(1);
    await waitForActiveTab(page, "final.md");

    await treeItem(page, "final.md").click();
    await page.keyboard.press("Delete");
    const dialog = page.getByRole("alertdialog", { name: "Delete file?" });
    await dialog.getByRole("button", { name: "Delete" }).click();
    await expect.poll(() => treeItem(page, "final.md").count()).toBe(0);
    await expect.poll(() => page.getByRole("tab", { name: "final.md" }).count()).toBe(0);
  });

  it("opens the context menu from the keyboard and creates a folder from it", async () => {
    const app = await browser.open();
    const { page } = app;
    await waitForWorkbench(page);
    await treeItem(page, "README.md").click();
    await page.keyboard.press("Shift+F10");
    const menu = page.getByRole("menu");
    await expect.poll(() => menu.getByRole("menuitem").allInnerTexts()).toEqual(["Open", "New file", "New folder", "Rename\nF2", "Delete\nDelete"]);
    await menu.getByRole("menuitem", { name: "New folder" }).click();
    const input = page.getByRole("textbox", { name: "Name" });
    await input.fill("src");
    await input.press("Enter");
    await expect.poll(() => treeItem(page, "src").getAttribute("aria-expanded")).toBe("false");
    // Arrow keys walk the tree; Right expands a folder.
    await page.getByRole("tree", { name: "Files" }).focus();
    await page.keyboard.press("Home");
    await expect.poll(() => treeItem(page, "src").getAttribute("aria-selected")).toBe("true");
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => treeItem(page, "src").getAttribute("aria-expanded")).toBe("true");
  });

  it("quick open (Ctrl+P) finds and opens a file from the keyboard", async () => {
    const app = await browser.open();
    const { page } = app;
    await waitForWorkbench(page);
    await waitForTerminal(page);
    await runInTerminal(page, "mkdir -p src/deep && echo x > src/deep/needle.ts");
    await expect.poll(() => treeItem(page, "src").count(), { timeout: 15_000 }).toBe(1);
    await page.locator(".monaco-host").click();
    await page.keyboard.press(`${MOD}+p`);
    const input = page.getByRole("combobox", { name: "Go to file" });
    await input.fill("needle");
    await expect.poll(() => page.getByRole("listbox", { name: "Matching files" }).getByRole("option", { selected: true }).innerText()).toContain("needle.ts");
    await input.press("Enter");
    await waitForActiveTab(page, "src/deep/needle.ts");
  });

  it("keeps files separate between workspaces, and switching is remembered", async () => {
    const app = await browser.open();
    const { page } = app;
    await waitForWorkbench(page);
    await createFileFromTree(page, "first-only.txt");

    await page.getByRole("button", { name: "New workspace" }).click();
    const dialog = page.getByRole("dialog", { name: "New workspace" });
    await dialog.getByRole("textbox", { name: "Workspace name" }).fill("Second");
    await dialog.getByRole("button", { name: "Create" }).click();
    await expect.poll(() => page.getByRole("combobox", { name: "Workspace" }).locator("option:checked").innerText()).toBe("Second");
    await waitForWorkbench(page);
    // A new workspace starts with the starter README (open), and nothing from the first one.
    await expect.poll(() => page.getByRole("tree", { name: "Files" }).getByRole("treeitem").allInnerTexts()).toEqual(["README.md"]);
    await waitForActiveTab(page, "README.md");
    await createFileFromTree(page, "second-only.txt");

    await page.getByRole("combobox", { name: "Workspace" }).selectOption({ label: "My workspace" });
    await expect.poll(() => treeItem(page, "first-only.txt").count(), { timeout: 15_000 }).toBe(1);
    expect(await treeItem(page, "second-only.txt").count()).toBe(0);

    await page.getByRole("combobox", { name: "Workspace" }).selectOption({ label: "Second" });
    await expect.poll(() => treeItem(page, "second-only.txt").count(), { timeout: 15_000 }).toBe(1);
    await page.reload();
    await waitForWorkbench(page);
    await expect.poll(() => page.getByRole("combobox", { name: "Workspace" }).locator("option:checked").innerText()).toBe("Second");
    await expect.poll(() => treeItem(page, "second-only.txt").count()).toBe(1);
  });

  it("?runtime=webcontainer&bootTimeout: a boot that cannot finish ends quietly in 'WebContainer unavailable', the terminal working throughout", async () => {
    const app = await browser.open("?runtime=webcontainer&bootTimeout=1500");
    const { page } = app;
    await waitForWorkbench(page);
    await waitForTerminal(page);
    await runInTerminal(page, "echo fallback-ok");
    await expect.poll(() => terminalText(page)).toMatch(/fallback-ok[\s\S]*fallback-ok/);
    const status = page.getByRole("contentinfo", { name: "Status bar" });
    await expect.poll(() => status.locator(".status-runtime").innerText(), { timeout: 20_000 }).toBe("WebContainer unavailable");
    // No banner over the workbench; node says why it is missing.
    expect(await page.locator(".runtime-notice").count()).toBe(0);
    await runInTerminal(page, "pnpm -v");
    await expect.poll(() => terminalText(page)).toMatch(/did not start within 2 s/);
  });

  it("?runtime=browser never loads WebContainer and says 'Browser runtime'", async () => {
    const app = await browser.open("?runtime=browser");
    const { page } = app;
    expect(await page.evaluate(() => self.crossOriginIsolated)).toBe(true);
    await waitForWorkbench(page);
    await waitForTerminal(page);
    await expect.poll(() => page.getByRole("contentinfo", { name: "Status bar" }).locator(".status-runtime").innerText()).toBe("Browser runtime");
    expect(await page.evaluate(() => (window as Window & { __webcodeFakeWebContainerLog?: unknown }).__webcodeFakeWebContainerLog)).toBeUndefined();
  });
});

describe("TypeScript in the editor", () => {
  it("resolves imports between workspace files and reports real type errors", async () => {
    const app = await browser.open();
    const { page } = app;
    await waitForWorkbench(page);
    await waitForTerminal(page);
    await runInTerminal(page, "mkdir -p src/lib && echo 'export function twice(n: number): number { return n * 2; }' > src/lib/math.ts");
    await runInTerminal(page, "echo 'import { twice } from \"./lib/math\"; export const x: number = twice(2);' > src/ok.ts");
    await runInTerminal(page, "echo 'import { twice } from \"./lib/math\"; export const y: string = twice(\"a\");' > src/bad.ts");
    await expect.poll(() => treeItem(page, "src").count(), { timeout: 15_000 }).toBe(1);

    const status = page.getByRole("contentinfo", { name: "Status bar" });
    await page.keyboard.press(`${MOD}+p`);
    await page.getByRole("combobox", { name: "Go to file" }).fill("src/ok.ts");
    await page.keyboard.press("Enter");
    await waitForActiveTab(page, "src/ok.ts");
    // Give the TypeScript worker time to check; a missing import would be an error here.
    await expect.poll(() => status.innerText(), { timeout: 30_000 }).toMatch(/typescript/);
    await page.waitForFunction(() => document.querySelector(".monaco-host .view-lines")?.textContent?.includes("twice"));

    await page.keyboard.press(`${MOD}+p`);
    await page.getByRole("combobox", { name: "Go to file" }).fill("src/bad.ts");
    await page.keyboard.press("Enter");
    await waitForActiveTab(page, "src/bad.ts");
    // Two errors: "a" is not a number, and a number is not a string.
    await expect.poll(() => status.innerText(), { timeout: 30_000 }).toMatch(/2 errors/);

    await page.getByRole("tab", { name: "ok.ts" }).click();
    await expect.poll(() => status.innerText(), { timeout: 30_000 }).toMatch(/0 errors/);
  });
});

describe("editing alongside the terminal", () => {
  it("asks keep mine / load theirs when a file with unsaved edits changes on disk", async () => {
    const app = await browser.open();
    const { page } = app;
    await waitForWorkbench(page);
    await waitForTerminal(page);
    await waitForActiveTab(page, "README.md");
    await page.locator(".monaco-host .view-lines").click();
    await page.keyboard.press(`${MOD}+End`);
    await page.keyboard.type("my unsaved line");
    await expect.poll(() => page.getByRole("tab", { name: "README.md, unsaved changes" }).count()).toBe(1);

    await runInTerminal(page, "echo from the terminal > README.md");
    const banner = page.getByRole("alert").filter({ hasText: "changed on disk" });
    await expect.poll(() => banner.count(), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => editorText(page)).toContain("my unsaved line");
    await banner.getByRole("button", { name: "Load theirs" }).click();
    await expect.poll(() => editorText(page)).toContain("from the terminal");
    await expect.poll(() => page.getByRole("tab", { name: "README.md", exact: true }).count()).toBe(1);
  });

  it("moves a file into a folder by drag and drop, and its open tab follows", async () => {
    const app = await browser.open();
    const { page } = app;
    await waitForWorkbench(page);
    await waitForTerminal(page);
    await runInTerminal(page, "mkdir docs");
    await expect.poll(() => treeItem(page, "docs").count(), { timeout: 15_000 }).toBe(1);
    await waitForActiveTab(page, "README.md");
    await treeItem(page, "README.md").dragTo(treeItem(page, "docs"));
    await expect.poll(() => treeItem(page, "docs").getAttribute("aria-expanded"), { timeout: 15_000 }).toBe("true");
    await expect.poll(() => treeItem(page, "README.md").getAttribute("aria-level")).toBe("2");
    await waitForActiveTab(page, "docs/README.md");
    await runInTerminal(page, "ls docs");
    await expect.poll(() => terminalText(page)).toMatch(/ls docs[\s\S]*README\.md/);
  });

  it("resizes panes from the keyboard through their separators", async () => {
    const app = await browser.open();
    const { page } = app;
    await waitForWorkbench(page);
    const handle = page.getByRole("separator", { name: "Resize file tree" });
    const before = Number(await handle.getAttribute("aria-valuenow"));
    await handle.focus();
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("Shift+ArrowRight");
    await expect.poll(async () => Number(await handle.getAttribute("aria-valuenow"))).toBe(before + 16 + 64);
    const tree = await page.getByRole("tree", { name: "Files" }).boundingBox();
    expect(Math.round(tree!.width)).toBe(before + 80);
    // Ctrl+J hides the terminal, and brings it back.
    await page.keyboard.press(`${MOD}+j`);
    await expect.poll(() => page.getByRole("region", { name: "Terminal" }).isVisible()).toBe(false);
    await page.keyboard.press(`${MOD}+j`);
    await expect.poll(() => page.getByRole("region", { name: "Terminal" }).isVisible()).toBe(true);
  });
});

describe("tabs and notifications", () => {
  it("closes tabs by middle click and close button, asking about unsaved changes", async () => {
    const app = await browser.open();
    const { page } = app;
    await waitForWorkbench(page);
    await createFileFromTree(page, "one.txt");
    await createFileFromTree(page, "two.txt");
    await waitForActiveTab(page, "two.txt");
    const tabs = page.getByRole("tablist", { name: "Open files" });
    await tabs.getByRole("tab", { name: "one.txt" }).click({ button: "middle" });
    await expect.poll(() => tabs.getByRole("tab").allInnerTexts()).toEqual(["README.md", "two.txt"]);

    // Typed only once two.txt is in the editor, and closed only once the tab says it has unsaved
    // changes: on a busy machine either can lag the click before it.
    await page.waitForSelector("[data-editor-ready='true']", { state: "attached" });
    await page.locator(".monaco-host .view-lines").click();
    await page.keyboard.type("unsaved");
    await expect.poll(() => tabs.locator('[data-path="two.txt"]').getAttribute("aria-label")).toMatch(/unsaved changes/);
    await tabs.getByRole("button", { name: "Close two.txt", includeHidden: true }).click();
    const dialog = page.getByRole("alertdialog", { name: "Save changes?" });
    await expect.poll(() => dialog.count()).toBe(1);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect.poll(() => tabs.getByRole("tab").count()).toBe(2);
    await tabs.getByRole("button", { name: "Close two.txt", includeHidden: true }).click();
    await expect.poll(() => dialog.count()).toBe(1);
    await dialog.getByRole("button", { name: "Don't save" }).click();
    await expect.poll(() => tabs.getByRole("tab").allInnerTexts()).toEqual(["README.md"]);
  });

  it("tells the user why a name was dropped when the field is left with an invalid name", async () => {
    const app = await browser.open();
    const { page } = app;
    await waitForWorkbench(page);
    await page.getByRole("button", { name: "New folder" }).click();
    await page.getByRole("textbox", { name: "Name" }).fill("what?");
    await page.locator(".monaco-host").click();
    const toast = page.getByRole("region", { name: "Notifications" }).getByRole("alert");
    await expect.poll(() => toast.innerText()).toMatch(/"what\?" was not created: .*not allowed/);
    await toast.getByRole("button", { name: "Dismiss notification" }).click();
    await expect.poll(() => toast.count()).toBe(0);
  });
});
