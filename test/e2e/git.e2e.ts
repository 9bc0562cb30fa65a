// git in the browser runtime in a real browser: commit in the terminal, the history survives a
// reload (the repository is workspace files in IndexedDB), and clone through the CORS proxy set in
// Settings → Runtime → Git, against `git http-backend` on 127.0.0.1.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runInTerminal, terminalText, treeItem, useBrowser, waitForTerminal, waitForWorkbench } from "../support/browser";
import { startFakeGitServer } from "../support/fake-git-server";

const browser = useBrowser();

async function unwrapped(page: Parameters<typeof terminalText>[0]): Promise<string> {
  return (await terminalText(page)).replace(/\n/g, "");
}

describe("git in the browser runtime", () => {
  it("commits in the terminal; after a reload the history and a clean status are still there", async () => {
    const { page } = await browser.open();
    await waitForWorkbench(page);
    await waitForTerminal(page);
    await runInTerminal(page, "git init -q && git config user.name Ada && git config user.email ada@example.com && echo hi > hello.txt && git add . && git commit -q -m 'Browser commit' && git log --oneline");
    await expect.poll(() => terminalText(page), { timeout: 30_000 }).toMatch(/^[0-9a-f]{7} Browser commit$/m);
    await expect.poll(() => treeItem(page, ".git").count(), { timeout: 10_000 }).toBe(1);
    await page.reload();
    await waitForWorkbench(page);
    await waitForTerminal(page);
    await runInTerminal(page, "git status && git log --format=%an:%s");
    await expect.poll(() => terminalText(page), { timeout: 30_000 }).toMatch(/nothing to commit, working tree clean\n\s*Ada:Browser commit$/m);
  });

  it("clone says how to set a CORS proxy; with one set in Settings it clones", async () => {
    const root = mkdtempSync(join(tmpdir(), "webcode-git-e2e-"));
    const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: root, GIT_CONFIG_NOSYSTEM: "1", GIT_AUTHOR_NAME: "A", GIT_AUTHOR_EMAIL: "a@e", GIT_COMMITTER_NAME: "A", GIT_COMMITTER_EMAIL: "a@e" };
    execFileSync("bash", ["-c", "mkdir w && cd w && git init -q -b main && echo served-content > served.txt && git add . && git commit -q -m 'Served' && cd .. && git clone -q --bare w demo.git"], { cwd: root, env });
    const server = await startFakeGitServer(root);
    browser.afterTest(async () => {
      await server.close();
      rmSync(root, { recursive: true, force: true });
    });

    const { page } = await browser.open();
    await waitForWorkbench(page);
    await waitForTerminal(page);
    await runInTerminal(page, "git clone https://git.example.test/demo.git");
    await expect.poll(() => unwrapped(page), { timeout: 30_000 }).toContain("no CORS proxy is set");

    await page.getByRole("button", { name: "Settings", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Settings" });
    await dialog.getByLabel("CORS proxy URL").fill(server.url);
    await dialog.getByRole("button", { name: "Set proxy" }).click();
    await expect.poll(() => dialog.getByRole("button", { name: "Set proxy" }).isDisabled(), { timeout: 10_000 }).toBe(true);
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect.poll(() => page.getByRole("dialog", { name: "Settings" }).count()).toBe(0);

    await runInTerminal(page, "clear; git clone https://git.example.test/demo.git && cat demo/served.txt");
    await expect.poll(() => terminalText(page), { timeout: 60_000 }).toMatch(/^served-content$/m);
    expect(server.requests.some((r) => r.host === "git.example.test" && r.path === "/demo.git/info/refs")).toBe(true);
  });
});
