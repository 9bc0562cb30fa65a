// A browser that will not open IndexedDB at all (as with storage disabled for the site, or some
// private modes: here an init script makes indexedDB.open throw before the app loads). webcode
// still starts, on storage in the tab's memory, says clearly that nothing will be kept, and works:
// a file created in the tree, a terminal command, the agent's write through the fake model server,
// the workspace exported as a zip; Retry says the browser's storage still does not open.
import { unzipSync, strFromU8 } from "fflate";
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { baseUrl, createFileFromTree, runInTerminal, setFakeBoot, terminalText, treeItem, waitForTerminal, waitForWorkbench, type AppPage } from "../support/browser";
import { chat, configureProvider, scripted, sendMessage, transcript, useAgentBrowser } from "./agent-helpers";

const browser = useAgentBrowser();

/** A fresh context whose IndexedDB refuses to open, from before the app's first script. */
async function openWithoutIndexedDB(): Promise<AppPage> {
  const context = await browser.chromium().newContext({ viewport: { width: 1440, height: 900 } });
  await setFakeBoot(context, "hang");
  await context.addInitScript(() => {
    IDBFactory.prototype.open = function open() {
      throw new DOMException("The user denied permission to access the database.", "SecurityError");
    };
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(`pageerror: ${error.message}`));
  await page.goto(new URL("?runtime=browser", baseUrl()).toString());
  return browser.track({ context, page, errors });
}

describe("IndexedDB that cannot be opened", () => {
  it("starts on in-memory storage with a banner; files, terminal, agent and export work", async () => {
    const server = await browser.startServer(
      scripted([
        { chunks: [{ type: "tool-call", name: "write", input: { filePath: "agent.txt", content: "from the agent\n" } }] },
        { chunks: [{ type: "text", text: "Wrote agent.txt." }] },
      ]),
    );
    const app = await openWithoutIndexedDB();
    const { page } = app;
    await waitForWorkbench(page);
    await waitForTerminal(page);

    const banner = page.getByRole("alert", { name: "Nothing is being saved" });
    await expect.poll(() => banner.count(), { timeout: 10_000 }).toBe(1);
    const bannerText = await banner.innerText();
    expect(bannerText).toContain("denied permission");
    expect(bannerText).toMatch(/lost when the tab is closed or reloaded/);
    expect(await page.getByText("Temporary storage: not saved").count()).toBe(1);

    await createFileFromTree(page, "notes.txt");
    await runInTerminal(page, "echo hello-memory > term.txt && cat term.txt");
    await expect.poll(() => terminalText(page), { timeout: 10_000 }).toContain("hello-memory");
    await expect.poll(() => treeItem(page, "term.txt").count(), { timeout: 10_000 }).toBe(1);

    // Settings and the chat live in memory too: a provider is added and the agent writes a file.
    await configureProvider(page, { baseUrl: server.url, edits: "allow" });
    await sendMessage(page, "Write agent.txt");
    await expect.poll(() => transcript(page), { timeout: 30_000 }).toContain("Wrote agent.txt.");
    await expect.poll(() => treeItem(page, "agent.txt").count(), { timeout: 10_000 }).toBe(1);
    expect(await chat(page).getByRole("alert").count()).toBe(0);

    const [download] = await Promise.all([
      page.waitForEvent("download", { timeout: 20_000 }),
      banner.getByRole("button", { name: "Export workspace (zip)" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.zip$/);
    const entries = unzipSync(new Uint8Array(await readFile((await download.path())!)));
    const names = Object.keys(entries);
    expect(names.some((n) => n.endsWith("notes.txt"))).toBe(true);
    const term = names.find((n) => n.endsWith("term.txt"));
    expect(term && strFromU8(entries[term]!)).toBe("hello-memory\n");
    const agent = names.find((n) => n.endsWith("agent.txt"));
    expect(agent && strFromU8(entries[agent]!)).toBe("from the agent\n");

    await banner.getByRole("button", { name: "Retry" }).click();
    await expect.poll(() => banner.innerText(), { timeout: 10_000 }).toContain("Browser storage still cannot be opened");
    expect(app.errors).toEqual([]);
  });
});
