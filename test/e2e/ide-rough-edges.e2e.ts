// Small rough edges of the IDE in a real browser: "New file" and "New folder" accept a relative path
// and create the folders on the way.
import { describe, expect, it } from "vitest";
import { runInTerminal, terminalText, treeItem, waitForActiveTab, waitForTerminal, waitForWorkbench, useBrowser } from "../support/browser";

const browser = useBrowser();

describe("rough edges", () => {
  it("creates src/lib/a.ts and then docs/guide inside src/lib from New file / New folder, with the folders on the way", async () => {
    const app = await browser.open();
    const { page } = app;
    await waitForWorkbench(page);
    await waitForTerminal(page);
    const input = page.getByRole("textbox", { name: "Name" });
    // A path through a file is refused with the reason.
    await page.getByRole("button", { name: "New file" }).click();
    await input.fill("README.md/x.ts");
    await expect.poll(() => page.getByRole("tree", { name: "Files" }).getByRole("alert").innerText()).toMatch(/"README.md" is a file/);
    await input.fill("src/lib/a.ts");
    await input.press("Enter");
    await waitForActiveTab(page, "src/lib/a.ts");
    // The new file is shown: its folders are expanded.
    await expect.poll(() => treeItem(page, "a.ts").count()).toBe(1);
    await expect.poll(() => treeItem(page, "lib").count()).toBe(1);

    // Relative to the focused file's folder (src/lib), as the tree's New folder always is.
    await page.getByRole("button", { name: "New folder" }).click();
    await input.fill("docs/guide");
    await input.press("Enter");
    await expect.poll(() => treeItem(page, "guide").count()).toBe(1);

    await runInTerminal(page, "ls src/lib src/lib/docs && echo listed");
    // The output line, not the command line that also says "listed".
    await expect.poll(() => terminalText(page), { timeout: 15_000 }).toMatch(/^listed\s*$/m);
    const text = await terminalText(page);
    expect(text).toContain("a.ts");
    expect(text).toContain("guide");
    expect(app.errors).toEqual([]);
  });
});
