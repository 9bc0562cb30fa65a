// The runtime that never waits, on the plain URL: the terminal and the agent work on the browser
// runtime while WebContainer's boot (the e2e build's fake, see test/support/fake-webcontainer-api.ts)
// hangs, fails, or succeeds after a delay; then the workspace moves to the container, the status bar
// says so and the next commands run there. Settings → Runtime's timeout and off switch apply on load.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { runInTerminal, terminalText, waitForTerminal, waitForWorkbench, type AppPage } from "../support/browser";
import { agentRequests, chat, configureProvider, messagesOf, scripted, sendMessage, transcript, useAgentBrowser } from "./agent-helpers";
import type { FakeModelServer } from "../support/fake-model-server";

const browser = useAgentBrowser();
const FAKE_NODE = "v20.19.0-fake-webcontainer";

function statusItem(page: Page) {
  return page.getByRole("contentinfo", { name: "Status bar" }).locator(".status-runtime");
}

async function fakeLog(page: Page): Promise<{ boots: number; commands: string[]; tornDown: number }> {
  return page.evaluate(() => {
    const log = (window as Window & { __webcodeFakeWebContainerLog?: { boots: number; commands: string[]; tornDown: number } }).__webcodeFakeWebContainerLog;
    return log ?? { boots: 0, commands: [], tornDown: 0 };
  });
}

/** The system prompt of an agent request. */
function systemOf(server: FakeModelServer, index: number): string {
  const message = messagesOf(agentRequests(server.requests)[index]!).find((m) => m.role === "system");
  return typeof message?.content === "string" ? message.content : JSON.stringify(message?.content);
}

/** Sends a message whose scripted turn runs `bash` and waits for the answer. */
async function agentTurn(page: Page, message: string, answer: string): Promise<void> {
  await sendMessage(page, message);
  await expect.poll(() => transcript(page), { timeout: 30_000 }).toContain(answer);
  await expect.poll(() => chat(page).getByRole("status").count(), { timeout: 10_000 }).toBe(0);
}

async function bashServer(commands: string[]): Promise<FakeModelServer> {
  return browser.startServer(
    scripted(
      commands.flatMap((command, i) => [
        { chunks: [{ type: "tool-call" as const, name: "bash", input: { command, description: `Run ${command}` } }] },
        { chunks: [{ type: "text" as const, text: `Answer ${i + 1} done.` }] },
      ]),
    ),
  );
}

async function openPlain(server: FakeModelServer, webcontainer: Parameters<typeof browser.open>[2]): Promise<AppPage> {
  const app = await browser.open("", undefined, webcontainer);
  await waitForWorkbench(app.page);
  await waitForTerminal(app.page);
  await configureProvider(app.page, { baseUrl: server.url });
  return app;
}

describe("the runtime that never waits (plain URL, fake WebContainer boot)", () => {
  it("a boot that hangs forever: the terminal and the agent work at once, the status says Node.js is starting", async () => {
    const server = await bashServer(["echo agent-on-browser"]);
    const { page } = await openPlain(server, { webcontainer: "hang" });
    // Nothing says "Starting the runtime…": the browser runtime is there; the status bar says what boots.
    expect(await page.getByText("Starting the runtime…").count()).toBe(0);
    expect(await statusItem(page).innerText()).toBe("Starting Node.js (WebContainer)…");

    await runInTerminal(page, "echo terminal-ok");
    await expect.poll(() => terminalText(page)).toMatch(/terminal-ok[\s\S]*terminal-ok/);
    await runInTerminal(page, "pnpm -v");
    await expect.poll(() => terminalText(page)).toMatch(/starting in the background: try again in a moment/);

    await agentTurn(page, "Run a command", "Answer 1 done.");
    expect(await transcript(page)).toContain("agent-on-browser");
    expect(systemOf(server, 0)).toMatch(/Runtime: browser/);
    // One boot, still pending; no banner over the workbench.
    expect((await fakeLog(page)).boots).toBe(1);
    expect(await page.locator(".runtime-notice").count()).toBe(0);
  });

  it("a boot that fails: 'WebContainer unavailable' with the reason one click away and Retry; everything else works", async () => {
    const server = await bashServer(["echo agent-after-failure"]);
    const { page } = await openPlain(server, { webcontainer: "fail" });
    await expect.poll(() => statusItem(page).innerText(), { timeout: 10_000 }).toBe("WebContainer unavailable");
    await runInTerminal(page, "echo still-ok");
    await expect.poll(() => terminalText(page)).toMatch(/still-ok[\s\S]*still-ok/);
    await agentTurn(page, "Run a command", "Answer 1 done.");
    expect(await transcript(page)).toContain("agent-after-failure");

    await page.getByRole("button", { name: "Runtime: WebContainer unavailable" }).click();
    const details = page.getByRole("dialog", { name: "Runtime details" });
    expect(await details.innerText()).toMatch(/headless frame did not load/);
    // Not retried by itself; Retry boots again (the first attempt has settled).
    expect((await fakeLog(page)).boots).toBe(1);
    await details.getByRole("button", { name: "Retry" }).click();
    await expect.poll(async () => (await fakeLog(page)).boots).toBe(2);
    await expect.poll(() => statusItem(page).innerText()).toBe("WebContainer unavailable");
  });

  it("a boot that succeeds after a delay: work goes on meanwhile, then the next commands run in the container", async () => {
    const server = await bashServer(["echo agent-before", "node -v"]);
    const { page } = await openPlain(server, { webcontainer: { delayMs: 12_000 } });
    await runInTerminal(page, "echo before-upgrade");
    await expect.poll(() => terminalText(page)).toMatch(/before-upgrade[\s\S]*before-upgrade/);
    await agentTurn(page, "First task", "Answer 1 done.");
    expect(systemOf(server, 0)).toMatch(/Runtime: browser/);
    expect((await fakeLog(page)).commands).toEqual([]);

    await expect.poll(() => statusItem(page).innerText(), { timeout: 30_000 }).toBe("Node.js (WebContainer)");
    // The open terminal says so in one line, then hands over to jsh in the container.
    await expect.poll(() => terminalText(page)).toMatch(/new commands in this terminal now run there/);
    await runInTerminal(page, "node -v");
    await expect.poll(() => terminalText(page), { timeout: 10_000 }).toContain(FAKE_NODE);
    await runInTerminal(page, "ls");
    await expect.poll(() => terminalText(page), { timeout: 10_000 }).toContain("README.md");

    // The agent's next command runs there too, and its environment block says so.
    await agentTurn(page, "Second task", "Answer 2 done.");
    expect(await transcript(page)).toContain(FAKE_NODE);
    expect(systemOf(server, 2)).toMatch(/Runtime: WebContainer/);

    // A workspace switch reuses the booted container: no second boot, the new files mounted.
    await page.getByRole("button", { name: "New workspace" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("textbox").fill("Second");
    await dialog.getByRole("button", { name: "Create" }).click();
    await expect.poll(() => page.getByRole("combobox", { name: "Workspace" }).locator("option:checked").innerText(), { timeout: 15_000 }).toBe("Second");
    await expect.poll(() => statusItem(page).innerText(), { timeout: 10_000 }).toBe("Node.js (WebContainer)");
    await waitForTerminal(page).catch(() => undefined);
    await runInTerminal(page, "node -v");
    await expect.poll(async () => (await fakeLog(page)).commands.filter((c) => c === "node -v").length, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    const log = await fakeLog(page);
    expect(log.boots).toBe(1);
    expect(log.tornDown).toBe(0);
  });

  it("Settings → Runtime: the boot timeout applies on the next load, and off means WebContainer is never loaded", async () => {
    const app = await browser.open("", undefined, { webcontainer: "hang" });
    const { page } = app;
    await waitForWorkbench(page);
    await page.getByRole("button", { name: "Settings", exact: true }).click();
    const settings = page.getByRole("dialog", { name: "Settings" });
    const timeout = settings.getByLabel("Give up waiting for WebContainer after (seconds)");
    await timeout.fill("2");
    await timeout.press("Enter");
    await settings.getByRole("button", { name: "Close" }).click();

    await page.reload();
    await waitForWorkbench(page);
    await expect.poll(() => statusItem(page).innerText(), { timeout: 10_000 }).toBe("WebContainer unavailable");
    await page.getByRole("button", { name: "Runtime: WebContainer unavailable" }).click();
    expect(await page.getByRole("dialog", { name: "Runtime details" }).innerText()).toMatch(/did not start within 2 s[\s\S]*third-party cookies/);
    await page.keyboard.press("Escape");

    await page.getByRole("button", { name: "Settings", exact: true }).click();
    await settings.getByLabel("Use WebContainer when available").uncheck();
    await settings.getByRole("button", { name: "Close" }).click();
    await page.reload();
    await waitForWorkbench(page);
    await waitForTerminal(page);
    expect(await statusItem(page).innerText()).toBe("Browser runtime");
    expect((await fakeLog(page)).boots).toBe(0);
  });
});
