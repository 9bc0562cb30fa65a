// Two tabs with the same workspace open (two pages of one browser profile: one IndexedDB): files
// created, changed, renamed and deleted in one show in the other's tree, editor and terminal at
// once; interleaved writes from both terminals lose nothing; an editor with unsaved edits gets
// the "changed on disk" choice; the workspace list follows; a session's turn runs in one tab at a
// time and the other tab shows it live.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { editorText, openSecondTab, runInTerminal, terminalText, treeItem, waitForActiveTab, waitForTerminal, waitForWorkbench } from "../support/browser";
import { chat, scripted, sendMessage, transcript, useAgentBrowser } from "./agent-helpers";

const browser = useAgentBrowser();


/** The tree's item names (flat, as rendered). */
function treeNames(page: Page): Promise<string[]> {
  return page.getByRole("tree", { name: "Files" }).getByRole("treeitem").allInnerTexts();
}

describe("two tabs on one workspace", () => {
  it("files follow between tabs at once: tree, terminal and editor; interleaved writes lose nothing", async () => {
    const app = await browser.open();
    const a = app.page;
    await waitForWorkbench(a);
    await waitForTerminal(a);
    const b = await openSecondTab(a);

    // Created in A's terminal: in B's tree and B's terminal file system. Each change takes well under
    // a second here when the machine is quiet; the limits (from typing the command) leave room for a
    // loaded one, where the command itself waits for the CPU.
    await runInTerminal(a, "mkdir -p notes && echo from-a > notes/a.txt");
    await expect.poll(() => treeItem(b, "notes").count(), { timeout: 5_000 }).toBe(1);
    await runInTerminal(b, "cat notes/a.txt");
    await expect.poll(() => terminalText(b), { timeout: 10_000 }).toMatch(/cat notes\/a\.txt\s*\n\s*from-a/);

    // Changed in B while A shows it in the editor: A's editor follows (no unsaved edits there).
    await treeItem(a, "README.md").click();
    await waitForActiveTab(a, "README.md");
    await runInTerminal(b, "echo '# Changed in tab B' > README.md");
    await expect.poll(() => editorText(a), { timeout: 5_000 }).toContain("# Changed in tab B");

    // Renamed and deleted in B: A's tree follows.
    await runInTerminal(b, "mv notes/a.txt notes/b.txt");
    await a.getByRole("tree", { name: "Files" }).getByRole("treeitem", { name: "notes" }).click();
    await expect.poll(() => treeNames(a), { timeout: 5_000 }).toContain("b.txt");
    expect(await treeNames(a)).not.toContain("a.txt");
    await runInTerminal(b, "rm -r notes");
    await expect.poll(async () => (await treeNames(a)).includes("notes"), { timeout: 5_000 }).toBe(false);

    // Both terminals write at the same time, each its own files and one shared file.
    await runInTerminal(a, "clear; for i in 1 2 3 4 5 6 7 8 9 10; do echo a$i > a$i.txt; echo a$i > shared.txt; done; echo D$((1+1))A");
    await runInTerminal(b, "clear; for i in 1 2 3 4 5 6 7 8 9 10; do echo b$i > b$i.txt; echo b$i > shared.txt; done; echo D$((1+1))B");
    // expect.poll waits 1 s by default: two loops of 20 stored writes each on a busy machine take longer.
    await expect.poll(() => terminalText(a), { timeout: 15_000 }).toMatch(/(^|\n)D2A\s/);
    await expect.poll(() => terminalText(b), { timeout: 15_000 }).toMatch(/(^|\n)D2B\s/);
    // Then each tab reports the shared file and the count: both the same, nothing lost (20 + README.md).
    // The shared file holds one tab's last line, or both last lines between conflict markers when the
    // two last writes crossed (each tab replaced the file before hearing of the other's write).
    const report = async (page: Page) => {
      await runInTerminal(page, "clear; echo S=$(grep -v '^[<=>]' shared.txt | sort | tr '\\n' ,) N=$(find . -maxdepth 1 -name '*.txt' | wc -l)");
      await expect.poll(() => terminalText(page), { timeout: 10_000 }).toMatch(/S=\S+ N=\s*\d+/);
      return /S=(\S+) N=\s*(\d+)/.exec(await terminalText(page))!.slice(1).join(" ");
    };
    await expect
      .poll(async () => {
        const [ra, rb] = [await report(a), await report(b)];
        return ra === rb ? ra : `${ra} / ${rb}`;
      }, { timeout: 15_000 })
      .toMatch(/^(a10,|b10,|a10,b10,) 21$/);
  });

  it("an editor with unsaved edits gets the changed-on-disk choice; the workspace list follows", async () => {
    const app = await browser.open();
    const a = app.page;
    await waitForWorkbench(a);
    await waitForActiveTab(a, "README.md");
    const b = await openSecondTab(a);

    // Unsaved edits in A, then B changes the file: A keeps the edits and is told.
    await a.locator(".monaco-editor .view-lines").first().click();
    await a.keyboard.press("Control+End");
    await a.keyboard.type("\nunsaved line in A");
    await runInTerminal(b, "echo 'written by B' > README.md");
    const conflict = a.getByText(/changed on disk/i).first();
    await expect.poll(() => conflict.count(), { timeout: 10_000 }).toBeGreaterThan(0);
    expect(await editorText(a)).toContain("unsaved line in A");

    // A new workspace made in B shows in A's switcher.
    await b.getByRole("button", { name: "New workspace" }).click();
    const dialog = b.getByRole("dialog", { name: "New workspace" });
    await dialog.getByRole("textbox", { name: "Workspace name" }).fill("Made in B");
    await dialog.getByRole("button", { name: "Create" }).click();
    await expect
      .poll(() => a.getByRole("combobox", { name: "Workspace" }).locator("option").allInnerTexts(), { timeout: 10_000 })
      .toContain("Made in B");
  });

  it("a turn runs in one tab at a time: the other shows it live and refuses a second turn on that session", async () => {
    const server = await browser.startServer(
      scripted([
        {
          chunks: [
            { type: "text", text: "Working on it in tab A. " },
            // Long enough that a loaded machine still opens the second tab and sends from it meanwhile.
            { type: "delay", ms: 10_000 },
            { type: "text", text: "Finished in tab A." },
          ],
        },
      ]),
    );
    const app = await browser.openWithProvider(server);
    const a = app.page;
    await sendMessage(a, "First message");
    await expect.poll(() => transcript(a), { timeout: 15_000 }).toContain("Working on it in tab A.");

    const b = await openSecondTab(a);
    // The session the other tab is running shows there as it streams, and ends there.
    await expect.poll(() => transcript(b), { timeout: 10_000 }).toContain("Working on it in tab A.");
    await sendMessage(b, "Second message from B");
    await expect.poll(() => b.getByText(/running a turn in another webcode tab/).count(), { timeout: 5_000 }).toBeGreaterThan(0);
    await expect.poll(() => transcript(b), { timeout: 20_000 }).toContain("Finished in tab A.");
    await expect.poll(() => transcript(a)).toContain("Finished in tab A.");
    // The reply B loaded while A was writing it is not marked interrupted.
    expect(await chat(b).getByText(/interrupted|aborted|stopped before it finished/i).count()).toBe(0);
  });
});
