// Continuity after a reload, per workspace: the open tabs in order, the active tab, its cursor and
// scroll position, and the side view shown come back.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { MOD, editorText, runInTerminal, terminalText, treeItem, waitForActiveTab, waitForTerminal, waitForWorkbench, useBrowser } from "../support/browser";

const browser = useBrowser();

/** The view remembered for the open workspace (localStorage, see workspace-view-state.ts), as raw JSON. */
const rememberedView = (page: Page) =>
  page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith("webcode.view.")).map((key) => localStorage.getItem(key)).join("\n"));

const openTabs = (page: Page) =>
  page.getByRole("tablist", { name: "Open files" }).getByRole("tab").evaluateAll((tabs) => tabs.map((t) => t.getAttribute("data-path")));

describe("continuity", () => {
  it("brings back tabs, the active tab, cursor and scroll, and the side view after a reload", async () => {
    const app = await browser.open();
    const { page } = app;
    await waitForWorkbench(page);
    await waitForTerminal(page);
    await runInTerminal(page, "for i in $(seq 1 300); do echo \"line number $i\"; done > long.txt && echo short > short.txt && echo made-files");
    await expect.poll(() => terminalText(page), { timeout: 15_000 }).toContain("made-files");
    await expect.poll(() => treeItem(page, "long.txt").count(), { timeout: 15_000 }).toBe(1);

    await treeItem(page, "short.txt").click();
    await waitForActiveTab(page, "short.txt");
    await treeItem(page, "long.txt").click();
    await waitForActiveTab(page, "long.txt");
    await page.locator(".monaco-host .view-lines").click();
    await page.keyboard.press(`${MOD}+End`);
    await page.keyboard.press("ArrowUp");
    await expect.poll(() => page.locator(".status-bar").innerText()).toContain("Ln 300,");
    await expect.poll(() => editorText(page)).toContain("line number 299");
    await page.getByRole("tab", { name: "Search" }).click();
    // Remembered: the tabs, the cursor on line 300 and the side view (a condition, not a fixed wait).
    await expect.poll(() => rememberedView(page)).toMatch(/^(?=.*"tabs":\["README\.md","short\.txt","long\.txt"\])(?=.*"lineNumber":300\b)(?=.*"panel":"search")/);
    const before = await openTabs(page);
    expect(before).toEqual(["README.md", "short.txt", "long.txt"]);

    await page.reload();
    await waitForWorkbench(page);
    await waitForActiveTab(page, "long.txt");
    expect(await openTabs(page)).toEqual(before);
    await expect.poll(() => page.locator(".status-bar").innerText(), { timeout: 15_000 }).toContain("Ln 300,");
    await expect.poll(() => editorText(page)).toContain("line number 299");
    expect(await editorText(page)).not.toContain("line number 1\n");
    expect(await page.getByRole("tab", { name: "Search" }).getAttribute("aria-selected")).toBe("true");

    // A closed tab stays closed; a file deleted meanwhile is not reopened.
    await page.getByRole("tab", { name: "short.txt" }).hover();
    await page.getByRole("button", { name: "Close short.txt", includeHidden: true }).click();
    await waitForTerminal(page);
    await runInTerminal(page, "rm README.md && echo removed-readme");
    await expect.poll(() => terminalText(page), { timeout: 15_000 }).toContain("removed-readme");
    await expect.poll(() => openTabs(page)).toEqual(["long.txt"]);
    await expect.poll(() => rememberedView(page)).toMatch(/"tabs":\["long\.txt"\]/);
    await page.reload();
    await waitForWorkbench(page);
    await waitForActiveTab(page, "long.txt");
    expect(await openTabs(page)).toEqual(["long.txt"]);
    expect(app.errors).toEqual([]);
  });
});
