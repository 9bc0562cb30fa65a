// Keyboard and layout of the IDE shell in a real browser: ways out of the editor and terminal (Ctrl+M
// "Tab moves focus", F6 / Shift+F6), and pane sizes that always leave the editor usable.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { terminalText, waitForActiveTab, waitForTerminal, waitForWorkbench, useBrowser } from "../support/browser";

const browser = useBrowser();

/** Which region holds the focus: files, editor, terminal, side panel, or the element's tag. */
function focusedRegion(page: Page): Promise<string> {
  return page.evaluate(() => {
    const active = document.activeElement;
    if (!active || active === document.body) return "body";
    if (active.closest(".pane-tree")) return "files";
    if (active.closest(".editor-panel")) return active.closest(".monaco-editor") ? "editor" : "editor-chrome";
    if (active.closest(".pane-terminal")) return active.closest(".terminal-host") ? "terminal" : "terminal-chrome";
    if (active.closest(".pane-right")) return "side panel";
    return active.tagName.toLowerCase();
  });
}

async function box(page: Page, selector: string) {
  const b = await page.locator(selector).first().boundingBox();
  if (!b) throw new Error(`${selector} is not laid out`);
  return b;
}

describe("IDE keyboard and layout", () => {
  it("Tab is typed in the editor until Ctrl+M; then Tab leaves the editor and the terminal, shown in the status bar", async () => {
    const app = await browser.open();
    const { page } = app;
    await waitForWorkbench(page);
    await waitForActiveTab(page, "README.md");
    await waitForTerminal(page);
    await page.locator(".monaco-editor .view-lines").click();
    const hint = page.getByRole("button", { name: "Ctrl+M: Tab moves focus" });
    await expect.poll(() => hint.count()).toBe(1);
    await page.keyboard.press("Tab");
    expect(await focusedRegion(page)).toBe("editor");
    await page.keyboard.press("Control+z");

    await page.keyboard.press("Control+m");
    const on = page.getByRole("button", { name: "Tab moves focus", exact: true });
    await expect.poll(() => on.getAttribute("aria-pressed")).toBe("true");
    await page.keyboard.press("Tab");
    expect(await focusedRegion(page)).not.toBe("editor");

    await page.locator(".terminal-host textarea").focus();
    const before = await terminalText(page);
    await page.keyboard.press("Tab");
    expect(await focusedRegion(page)).not.toBe("terminal");
    expect(await terminalText(page)).toBe(before);

    // Off again: Tab stays in the terminal (an empty line only beeps, it lists nothing).
    await page.keyboard.press("Control+m");
    await expect.poll(() => on.count()).toBe(0);
    await page.locator(".terminal-host textarea").focus();
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    expect(await focusedRegion(page)).toBe("terminal");
    expect(await terminalText(page)).toBe(before);
    expect(app.errors).toEqual([]);
  });

  it("F6 and Shift+F6 move between the file tree, editor, terminal and side panel", async () => {
    const app = await browser.open();
    const { page } = app;
    await waitForWorkbench(page);
    await waitForActiveTab(page, "README.md");
    await waitForTerminal(page);
    await page.getByRole("tree", { name: "Files" }).focus();
    const seen: string[] = [];
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press("F6");
      seen.push(await focusedRegion(page));
    }
    expect(seen).toEqual(["editor", "terminal", "side panel", "files"]);
    await page.keyboard.press("Shift+F6");
    expect(await focusedRegion(page)).toBe("side panel");
    await page.keyboard.press("Shift+F6");
    expect(await focusedRegion(page)).toBe("terminal");
  });

  it("End on every separator leaves the editor usable and the terminal and chat on screen, also after a reload on a small window", async () => {
    const app = await browser.open("?runtime=browser", { width: 1440, height: 900 });
    const { page } = app;
    await waitForWorkbench(page);
    for (const name of ["Resize file tree", "Resize terminal", "Resize side panel"]) {
      await page.getByRole("separator", { name }).focus();
      await page.keyboard.press("End");
    }
    const check = async (width: number, height: number) => {
      const editor = await box(page, ".editor-panel");
      const terminal = await box(page, ".pane-terminal");
      const right = await box(page, ".pane-right");
      expect(editor.width).toBeGreaterThanOrEqual(320);
      expect(editor.height).toBeGreaterThanOrEqual(150);
      expect(terminal.y + terminal.height).toBeLessThanOrEqual(height);
      expect(right.x + right.width).toBeLessThanOrEqual(width + 1);
    };
    await expect.poll(async () => (await box(page, ".pane-right")).width).toBeGreaterThan(500);
    await check(1440, 900);

    await page.setViewportSize({ width: 1024, height: 640 });
    await expect.poll(async () => (await box(page, ".editor-panel")).width).toBeGreaterThanOrEqual(320);
    await check(1024, 640);
    await page.reload();
    await waitForWorkbench(page);
    await check(1024, 640);
    expect(app.errors).toEqual([]);
  });
});
