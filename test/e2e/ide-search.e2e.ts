// Search across files in a real browser: Ctrl/Cmd+Shift+F opens the Search view, results are grouped
// by file, a click opens the file at the match, replace one and replace all write through the file
// service (the terminal and an open editor tab see it).
import { describe, expect, it } from "vitest";
import { MOD, editorText, runInTerminal, terminalText, waitForActiveTab, waitForTerminal, waitForWorkbench, useBrowser } from "../support/browser";

const browser = useBrowser();

describe("search across files", () => {
  it("finds, opens at the match, replaces one and all", async () => {
    const app = await browser.open();
    const { page } = app;
    await waitForWorkbench(page);
    await waitForTerminal(page);
    await runInTerminal(page, "mkdir -p src/lib && printf 'one\\ntwo\\nconst needle = 1;\\n' > src/a.ts && printf 'needle needle\\nNeedles\\n' > src/lib/b.ts && echo done-setup");
    await expect.poll(() => terminalText(page), { timeout: 15_000 }).toContain("done-setup");

    await page.keyboard.press(`${MOD}+Shift+f`);
    const search = page.getByRole("textbox", { name: "Search", exact: true });
    await expect.poll(() => search.evaluate((el) => el === document.activeElement)).toBe(true);
    await search.fill("needle");
    const status = page.getByRole("region", { name: "Search" }).getByRole("status");
    await expect.poll(() => status.innerText()).toBe("4 results in 2 files");
    await page.getByRole("button", { name: "Match whole word" }).click();
    await expect.poll(() => status.innerText()).toBe("3 results in 2 files");
    await page.getByRole("textbox", { name: "Files to include" }).fill("lib");
    await expect.poll(() => status.innerText()).toBe("2 results in 1 file");
    await page.getByRole("textbox", { name: "Files to include" }).fill("");
    await expect.poll(() => status.innerText()).toBe("3 results in 2 files");

    // Click a result: the file opens with the match "needle" selected on line 3.
    await page.getByRole("button", { name: "src/a.ts line 3: const needle = 1;" }).click();
    await waitForActiveTab(page, "src/a.ts");
    await expect.poll(() => page.locator(".status-bar").innerText()).toContain("Ln 3, Col 13"); // the match (columns 7 to 13) selected, cursor at its end

    // Replace one: only the second match on line 1 of b.ts.
    await page.getByRole("textbox", { name: "Replace", exact: true }).fill("pin");
    await page.getByRole("button", { name: "Replace match on line 1 of src/lib/b.ts" }).nth(1).click();
    await expect.poll(() => status.innerText()).toBe("2 results in 2 files");
    await runInTerminal(page, "cat src/lib/b.ts");
    await expect.poll(() => terminalText(page), { timeout: 15_000 }).toContain("needle pin");

    // Replace all (confirmed): the open tab and the disk both change.
    await page.getByRole("button", { name: "Replace all" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Replace all" }).click();
    await expect.poll(() => status.innerText()).toBe("No results.");
    await expect.poll(() => editorText(page), { timeout: 15_000 }).toContain("const pin = 1;");
    await runInTerminal(page, "clear; cat src/lib/b.ts src/a.ts");
    await expect.poll(() => terminalText(page), { timeout: 15_000 }).toContain("pin pin");
    expect(await terminalText(page)).toContain("Needles");
    expect(app.errors).toEqual([]);
  });

  it("says when a regular expression is invalid", async () => {
    const app = await browser.open();
    const { page } = app;
    await waitForWorkbench(page);
    await page.keyboard.press(`${MOD}+Shift+f`);
    await page.getByRole("button", { name: "Use regular expression" }).click();
    await page.getByRole("textbox", { name: "Search", exact: true }).fill("(open");
    await expect.poll(() => page.getByRole("region", { name: "Search" }).getByRole("alert").innerText()).toMatch(/Invalid regular expression/);
  });
});
