// The agent in the built app against a scripted OpenAI-compatible server on 127.0.0.1 (the page
// calls it directly, CORS preflight answered): first-run guide, provider set up through Settings,
// a read → edit (asks permission) → bash → answer task, the file changed in the editor, the diff in
// Changes, revert and unrevert; a reject with a message that the turn goes on with; and the Changes
// view closed while its diff is still being computed.
import { describe, expect, it } from "vitest";
import { editorText, waitForActiveTab, waitForWorkbench } from "../support/browser";
import { FAKE_KEY, agentRequests, chat, configureProvider, messagesOf, scripted, sendMessage, transcript, useAgentBrowser } from "./agent-helpers";

const browser = useAgentBrowser();

const OLD_TITLE = "# Welcome to your workspace";
const NEW_TITLE = "# Hello from the agent";

describe("agent task in the IDE", () => {
  it("runs read → edit (permission) → bash → answer, updates the editor, shows the diff in Changes, and reverts", async () => {
    const server = await browser.startServer(
      scripted(
        [
          { chunks: [{ type: "text", text: "Let me look at the README first." }, { type: "tool-call", name: "read", input: { filePath: "README.md" } }] },
          { chunks: [{ type: "tool-call", name: "edit", input: { filePath: "README.md", oldString: OLD_TITLE, newString: NEW_TITLE } }] },
          { chunks: [{ type: "tool-call", name: "bash", input: { command: "grep -n Hello README.md", description: "Check the new title" } }] },
          { chunks: [{ type: "text", text: "Done: the README now starts with **Hello from the agent**." }], usage: { input: 1200, output: 40 } },
        ],
        "Retitle the README",
      ),
      { requireKey: FAKE_KEY },
    );
    const app = await browser.open();
    const { page } = app;
    await waitForWorkbench(page);
    await waitForActiveTab(page, "README.md");

    // The chat is the right panel's first tab and starts with the first-run guide.
    const tabs = page.getByRole("tablist", { name: "Side panels" }).getByRole("tab");
    await expect.poll(() => tabs.first().textContent()).toBe("Chat");
    await expect.poll(() => tabs.first().getAttribute("aria-selected")).toBe("true");
    await expect.poll(() => chat(page).getByRole("heading", { name: "Connect a model to start" }).count(), { timeout: 20_000 }).toBe(1);

    await configureProvider(page, { baseUrl: server.url, edits: "ask" });
    await expect.poll(() => chat(page).getByRole("heading", { name: "Connect a model to start" }).count()).toBe(0);

    await sendMessage(page, "Change the README title to 'Hello from the agent' and check it.");
    const card = chat(page).getByRole("group", { name: "The agent wants to change files" });
    await expect.poll(() => card.count(), { timeout: 30_000 }).toBe(1);
    // The card shows the edit's diff before anything is written.
    expect(await card.innerText()).toContain("Hello from the agent");
    expect(await editorText(page)).toContain(OLD_TITLE);
    await card.getByRole("button", { name: "Allow once" }).click();

    await expect.poll(() => transcript(page), { timeout: 30_000 }).toContain("Done: the README now starts with");
    await expect.poll(() => chat(page).getByRole("status").count()).toBe(0);
    // The bash tool's output is in the transcript; the open editor tab shows the agent's edit.
    expect(await transcript(page)).toContain("1:# Hello from the agent");
    await expect.poll(() => editorText(page), { timeout: 10_000 }).toContain(NEW_TITLE);
    expect(await chat(page).getByLabel("Message usage").last().innerText()).toMatch(/fake-model/);

    // What went over the wire: the key, the read result before the edit, the bash output before the answer.
    const requests = agentRequests(server.requests);
    expect(requests).toHaveLength(4);
    expect(requests[0]!.headers.authorization).toBe(`Bearer ${FAKE_KEY}`);
    expect(JSON.stringify(messagesOf(requests[1]!))).toContain("Welcome to your workspace");
    expect(JSON.stringify(messagesOf(requests[3]!))).toContain("1:# Hello from the agent");

    // Changes: the file with a Monaco diff.
    await chat(page).getByRole("button", { name: "Changes" }).click();
    await expect.poll(() => chat(page).getByRole("list", { name: "Changed files" }).innerText()).toContain("README.md");
    const diff = chat(page).getByRole("region", { name: "Diff of README.md" });
    await expect.poll(() => diff.getAttribute("data-diff-ready"), { timeout: 20_000 }).toBe("true");
    await expect.poll(() => diff.locator(".monaco-diff-editor").count()).toBe(1);
    // Monaco renders spaces as no-break spaces.
    const diffText = async () => (await diff.innerText()).replace(/\u00a0/g, " ");
    await expect.poll(diffText).toContain("Hello from the agent");
    expect(await diffText()).toContain("Welcome to your workspace");

    // Revert to the user message: the file is back; unrevert brings the change back.
    await chat(page).getByRole("button", { name: "Changes" }).click();
    await chat(page).getByRole("article", { name: "Your message" }).getByRole("button", { name: "Revert to here" }).click();
    await expect.poll(() => editorText(page), { timeout: 10_000 }).toContain(OLD_TITLE);
    await expect.poll(() => chat(page).getByRole("button", { name: "Unrevert" }).count()).toBe(1);
    await chat(page).getByRole("button", { name: "Unrevert" }).click();
    await expect.poll(() => editorText(page), { timeout: 10_000 }).toContain(NEW_TITLE);
    expect(app.errors).toEqual([]);
  });

  it("a reject with a message reaches the model at once and the turn goes on with it", async () => {
    const server = await browser.startServer(
      scripted([
        { chunks: [{ type: "tool-call", name: "read", input: { filePath: "README.md" } }] },
        { chunks: [{ type: "tool-call", name: "edit", input: { filePath: "README.md", oldString: OLD_TITLE, newString: "# Rewritten" } }] },
        { chunks: [{ type: "text", text: "Understood, I left the README alone." }] },
      ]),
    );
    const app = await browser.openWithProvider(server, { edits: "ask" });
    const { page } = app;
    await sendMessage(page, "Rewrite the README title.");
    const card = chat(page).getByRole("group", { name: "The agent wants to change files" });
    await expect.poll(() => card.count(), { timeout: 30_000 }).toBe(1);
    await card.getByLabel("Message to the agent").fill("Keep the title as it is.");
    await card.getByRole("button", { name: "Reject" }).click();

    // The same turn goes on: the model answers the user's words without a new message from them.
    await expect.poll(() => card.count()).toBe(0);
    await expect.poll(() => transcript(page), { timeout: 30_000 }).toContain("Understood, I left the README alone.");
    await expect.poll(() => chat(page).getByRole("button", { name: "Send" }).count(), { timeout: 10_000 }).toBe(1);
    expect(await editorText(page)).toContain(OLD_TITLE);
    // The edit is marked failed with the user's words, which were the call's result for the model.
    // (Polled: the turn's "Working…" line goes a moment after its last words arrive.)
    await expect
      .poll(() => chat(page).getByRole("status").allInnerTexts(), { timeout: 10_000 })
      .toEqual(["The user rejected this edit call and said: Keep the title as it is."]);
    expect(await transcript(page)).toMatch(/edit\s+README\.md\s+Failed/);
    const requests = agentRequests(server.requests);
    expect(requests).toHaveLength(3);
    expect(JSON.stringify(messagesOf(requests[2]!))).toContain("Keep the title as it is.");
    expect(app.errors).toEqual([]);
  });

  it("closing the Changes view while its diff is still computed leaves no error behind", async () => {
    const server = await browser.startServer(
      scripted(
        [
          { chunks: [{ type: "tool-call", name: "read", input: { filePath: "README.md" } }] },
          { chunks: [{ type: "tool-call", name: "edit", input: { filePath: "README.md", oldString: OLD_TITLE, newString: NEW_TITLE } }] },
          { chunks: [{ type: "text", text: "Retitled." }] },
        ],
        "Retitle",
      ),
    );
    const app = await browser.openWithProvider(server, { edits: "allow" });
    const { page } = app;
    // Monaco's editor worker answers late, as it does when it starts on a busy machine: the diff is
    // still being computed when the view closes.
    await app.context.addInitScript(() => {
      const NativeWorker = window.Worker;
      window.Worker = class extends NativeWorker {
        private readonly late: boolean;
        constructor(url: string | URL, options?: WorkerOptions) {
          super(url, options);
          this.late = String(url).includes("editor.worker");
        }
        override postMessage(message: unknown, options?: Transferable[] | StructuredSerializeOptions): void {
          const send = () => (Array.isArray(options) ? super.postMessage(message, options) : super.postMessage(message, options));
          if (this.late) setTimeout(send, 500);
          else send();
        }
      };
    });
    await page.reload();
    await waitForWorkbench(page);
    await sendMessage(page, "Retitle the README.");
    await expect.poll(() => transcript(page), { timeout: 30_000 }).toContain("Retitled.");

    const changes = chat(page).getByRole("button", { name: "Changes" });
    const diffEditor = chat(page).locator(".monaco-diff-editor");
    for (let i = 0; i < 3; i++) {
      await changes.click();
      await diffEditor.waitFor({ state: "attached", timeout: 20_000 });
      await changes.click();
      await diffEditor.waitFor({ state: "detached" });
    }
    // Monaco reports a diff that comes back for a closed view as "no diff result available".
    await page.waitForTimeout(2_000);
    expect(app.errors).toEqual([]);
    // The view still shows its diff once the worker answers.
    await changes.click();
    const diff = chat(page).getByRole("region", { name: "Diff of README.md" });
    await expect.poll(async () => (await diff.innerText()).replace(/\u00a0/g, " "), { timeout: 20_000 }).toContain("Hello from the agent");
  });

  it("deleting the sessions in Settings → Storage while a turn runs stops the turn, and the session stays gone after a reload", async () => {
    const server = await browser.startServer(
      scripted(
        [
          {
            chunks: [
              { type: "text", text: "Working on a long answer. " },
              { type: "delay", ms: 20_000 },
              { type: "text", text: "This part comes after the delete." },
            ],
          },
        ],
        "Long one",
      ),
    );
    const app = await browser.openWithProvider(server);
    const { page } = app;
    await sendMessage(page, "Start something long.");
    await expect.poll(() => transcript(page), { timeout: 30_000 }).toContain("Working on a long answer.");
    await expect.poll(() => chat(page).getByRole("button", { name: "Stop" }).count()).toBe(1);

    await page.getByRole("button", { name: "Settings", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Settings" });
    await dialog.getByRole("button", { name: /^Delete the sessions of "My workspace"/ }).click();
    await page.getByRole("button", { name: "Delete sessions", exact: true }).click();
    await expect.poll(() => dialog.getByRole("status").filter({ hasText: 'Deleted the sessions of "My workspace".' }).count(), { timeout: 15_000 }).toBe(1);
    await dialog.getByRole("button", { name: "Close" }).click();

    // The turn stopped and the chat no longer shows the session.
    await expect.poll(() => chat(page).getByRole("button", { name: "Stop" }).count(), { timeout: 10_000 }).toBe(0);
    await expect.poll(() => transcript(page)).not.toContain("Working on a long answer.");
    await chat(page).getByRole("button", { name: "Sessions", exact: true }).click();
    expect(await page.locator("nav.sessions-sidebar").innerText()).not.toContain("Long one");
    await page.keyboard.press("Escape");

    await page.reload();
    await waitForWorkbench(page);
    await chat(page).getByRole("button", { name: "Sessions", exact: true }).click();
    await expect.poll(() => page.locator("nav.sessions-sidebar").count()).toBe(1);
    expect(await page.locator("nav.sessions-sidebar").innerText()).not.toContain("Long one");
    expect(await transcript(page)).not.toContain("Working on a long answer.");
    expect(app.errors).toEqual([]);
  });
});
