// Open a GitHub repository and send the work back as a pull request, in a real browser against a
// local fake of GitHub's REST API and raw host (Settings → Runtime → GitHub's Enterprise API URL
// points at it): Open from GitHub, an edit in Monaco and a deletion in the terminal, Push to
// GitHub, the pull request's link; and `#github=` for a private repository without a token.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { MOD, editorText, runInTerminal, treeItem, waitForActiveTab, waitForTerminal, waitForWorkbench } from "../support/browser";
import { startFakeGitHub } from "../support/fake-github";
import { chat, scripted, sendMessage, transcript, useAgentBrowser } from "./agent-helpers";

const browser = useAgentBrowser();

/** `#github=` in the open tab's address, then Open and Import in the import dialog. */
async function openByAddress(page: Page, spec: string): Promise<void> {
  await page.evaluate((value) => {
    location.hash = `#github=${value}`;
  }, spec);
  const dialog = page.getByRole("dialog", { name: "Import" });
  await expect.poll(() => dialog.getByRole("button", { name: "Open" }).count(), { timeout: 10_000 }).toBe(1);
  await dialog.getByRole("button", { name: "Open" }).click();
  await expect.poll(() => dialog.getByRole("button", { name: "Import" }).count(), { timeout: 30_000 }).toBe(1);
  await dialog.getByRole("button", { name: "Import" }).click();
}

async function setGitHubSettings(page: Page, apiUrl: string, token?: string): Promise<void> {
  await page.getByRole("button", { name: "Settings", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await dialog.getByLabel("GitHub Enterprise API URL").fill(apiUrl);
  await dialog.getByRole("button", { name: "Set API URL" }).click();
  await expect.poll(() => dialog.getByRole("button", { name: "Set API URL" }).isDisabled(), { timeout: 10_000 }).toBe(true);
  if (token) {
    await dialog.getByLabel("GitHub token").fill(token);
    await dialog.getByRole("button", { name: "Set GitHub token" }).click();
    await expect.poll(() => dialog.getByRole("button", { name: "Remove GitHub token" }).count(), { timeout: 10_000 }).toBe(1);
  }
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect.poll(() => page.getByRole("dialog", { name: "Settings" }).count()).toBe(0);
}

describe("GitHub", () => {
  it("opens a repository from GitHub, edits it, pushes a branch and opens a pull request", async () => {
    const github = await startFakeGitHub();
    browser.afterTest(() => github.close());
    const { commit } = github.addRepo({
      owner: "octo",
      repo: "hello",
      files: { "README.md": "# Hello\n", "src/index.ts": "export const answer = 42;\n", "src/old.ts": "export {};\n" },
    });
    github.tokens.set("pat-e2e", { login: "me", read: new Set(), write: new Set(["octo/hello"]) });

    const app = await browser.open();
    const { page } = app;
    await waitForWorkbench(page);
    await setGitHubSettings(page, github.apiUrl, "pat-e2e");

    await page.getByRole("button", { name: "Open from GitHub" }).click();
    const ask = page.getByRole("dialog", { name: "Open from GitHub" });
    await ask.getByRole("textbox", { name: "Repository" }).fill("octo/hello");
    await ask.getByRole("button", { name: "Continue" }).click();
    // Nothing is requested before the user agrees.
    const dialog = page.getByRole("dialog", { name: "Import" });
    await expect.poll(() => dialog.getByRole("button", { name: "Open" }).count()).toBe(1);
    expect(await dialog.textContent()).toContain("octo/hello");
    expect(github.requests).toEqual([]);
    await dialog.getByRole("button", { name: "Open" }).click();
    await expect.poll(() => dialog.getByRole("button", { name: "Import" }).count(), { timeout: 15_000 }).toBe(1);
    expect(await dialog.getByRole("radio", { name: /The current workspace/ }).isDisabled()).toBe(true);
    await dialog.getByRole("button", { name: "Import" }).click();

    await expect.poll(() => treeItem(page, "README.md").count(), { timeout: 30_000 }).toBe(1);
    await expect.poll(() => page.getByText("Imported 3 files").count(), { timeout: 15_000 }).toBe(1);
    // A public repository: the tree from the API, the files from the raw host at the commit.
    expect(github.requests.filter((r) => r.path.startsWith("/raw/")).map((r) => r.path).sort()).toEqual(
      ["README.md", "src/index.ts", "src/old.ts"].map((p) => `/raw/octo/hello/${commit}/${p}`),
    );

    // Edit README.md in the editor, delete a file in the terminal.
    await treeItem(page, "README.md").click();
    await waitForActiveTab(page, "README.md");
    await expect.poll(() => editorText(page), { timeout: 15_000 }).toContain("# Hello");
    await page.locator(".monaco-host .view-lines").click();
    await page.keyboard.press(`${MOD}+End`);
    await page.keyboard.type("Edited in webcode");
    await page.keyboard.press(`${MOD}+s`);
    await waitForTerminal(page);
    await runInTerminal(page, "rm src/old.ts");
    await expect.poll(() => treeItem(page, "old.ts").count(), { timeout: 15_000 }).toBe(0);

    await page.getByRole("button", { name: "Push to GitHub" }).click();
    const push = page.getByRole("dialog", { name: "Push to GitHub" });
    await push.getByRole("textbox", { name: "New branch" }).fill("webcode/readme");
    await push.getByRole("textbox", { name: "Pull request title" }).fill("Edit the README");
    await push.getByRole("textbox", { name: "Pull request description" }).fill("Made in webcode.");
    await push.getByRole("button", { name: "Push and open pull request" }).click();
    const done = page.getByRole("dialog", { name: "Pull request opened" });
    await expect.poll(() => done.count(), { timeout: 30_000 }).toBe(1);
    const link = done.getByRole("link", { name: "Open pull request #1 on GitHub" });
    expect(await link.getAttribute("href")).toBe(`${github.origin}/octo/hello/pull/1`);

    const { received } = github;
    expect(received.blobs).toEqual([]);
    expect(received.trees.map((t) => t.tree)).toEqual([
      [
        { path: "README.md", mode: "100644", type: "blob", content: "# Hello\nEdited in webcode" },
        { path: "src/old.ts", mode: "100644", type: "blob", sha: null },
      ],
    ]);
    expect(received.commits).toHaveLength(1);
    expect(received.commits[0]).toMatchObject({ message: "Edit the README\n\nMade in webcode.", parents: [commit] });
    expect(received.refs).toEqual([{ repo: "octo/hello", ref: "refs/heads/webcode/readme", sha: received.commits[0]!.sha }]);
    expect(received.pulls).toEqual([{ repo: "octo/hello", title: "Edit the README", body: "Made in webcode.", head: "webcode/readme", base: "main", html_url: `${github.origin}/octo/hello/pull/1` }]);
    expect(github.branch("octo/hello", "main")).toBe(commit);
    // Every API request carried the token; the raw host never saw it.
    expect(github.requests.filter((r) => r.path.startsWith("/api/")).every((r) => r.token === "pat-e2e")).toBe(true);
    expect(github.requests.filter((r) => r.path.startsWith("/raw/")).every((r) => r.token === undefined)).toBe(true);
    expect(app.errors).toEqual([]);
  });

  it("#github= for a private repository without a token says so in plain words", async () => {
    const github = await startFakeGitHub();
    browser.afterTest(() => github.close());
    github.addRepo({ owner: "octo", repo: "secret", private: true, files: { "a.txt": "a\n" } });
    const { page } = await browser.open();
    await waitForWorkbench(page);
    await setGitHubSettings(page, github.apiUrl);
    await page.evaluate(() => {
      location.hash = "#github=octo/secret";
    });
    const dialog = page.getByRole("dialog", { name: "Import" });
    await expect.poll(() => dialog.getByRole("button", { name: "Open" }).count(), { timeout: 10_000 }).toBe(1);
    expect(page.url()).not.toContain("github=");
    await dialog.getByRole("button", { name: "Open" }).click();
    const failed = page.getByRole("dialog", { name: "Import failed" });
    await expect.poll(() => failed.count(), { timeout: 15_000 }).toBe(1);
    expect(await failed.getByRole("alert").textContent()).toContain("The repository octo/secret was not found, or it is private.");
  });

  it("the agent edits a file and opens a pull request with github_push, after asking", async () => {
    const github = await startFakeGitHub();
    browser.afterTest(() => github.close());
    const { commit } = github.addRepo({ owner: "octo", repo: "hello", files: { "README.md": "# Hello\n", "src/index.ts": "export const answer = 42;\n" } });
    github.tokens.set("pat-e2e", { login: "me", read: new Set(), write: new Set(["octo/hello"]) });
    const server = await browser.startServer(
      scripted([
        { chunks: [{ type: "tool-call", name: "read", input: { filePath: "README.md" } }] },
        { chunks: [{ type: "tool-call", name: "edit", input: { filePath: "README.md", oldString: "# Hello", newString: "# Hello, agent" } }] },
        { chunks: [{ type: "tool-call", name: "github_push", input: { title: "Greet the agent", body: "The README's title now greets the agent.", branch: "agent/greeting" } }] },
        { chunks: [{ type: "text", text: "Opened the pull request." }] },
      ]),
    );
    const { page } = await browser.openWithProvider(server);
    await setGitHubSettings(page, github.apiUrl, "pat-e2e");
    await openByAddress(page, "octo/hello");
    await expect.poll(() => treeItem(page, "README.md").count(), { timeout: 30_000 }).toBe(1);
    await expect.poll(() => page.getByText("Imported 2 files").count(), { timeout: 15_000 }).toBe(1);

    await sendMessage(page, "Make the README greet the agent and open a pull request.");
    const card = chat(page).getByRole("group", { name: "The agent wants to push to GitHub and open a pull request" });
    await expect.poll(() => card.count(), { timeout: 30_000 }).toBe(1);
    expect(await card.textContent()).toContain('a new branch "agent/greeting"');
    expect(github.received.refs).toEqual([]);
    await card.getByRole("button", { name: "Allow once" }).click();
    await expect.poll(() => transcript(page), { timeout: 30_000 }).toContain("Opened the pull request.");
    expect(github.received.trees.map((t) => t.tree)).toEqual([[{ path: "README.md", mode: "100644", type: "blob", content: "# Hello, agent\n" }]]);
    expect(github.received.commits[0]).toMatchObject({ message: "Greet the agent\n\nThe README's title now greets the agent.", parents: [commit] });
    expect(github.received.refs).toEqual([{ repo: "octo/hello", ref: "refs/heads/agent/greeting", sha: github.received.commits[0]!.sha }]);
    expect(github.received.pulls).toMatchObject([{ title: "Greet the agent", head: "agent/greeting", base: "main" }]);
  });

  it("opens a 1,000-file public repository in under 10 s (measured)", async () => {
    const github = await startFakeGitHub();
    browser.afterTest(() => github.close());
    const files: Record<string, string> = {};
    for (let i = 0; i < 1000; i++) files[`src/module-${Math.floor(i / 50)}/file-${i}.ts`] = `export const value${i} = ${i};\n${"// line\n".repeat(40)}`;
    github.addRepo({ owner: "octo", repo: "thousand", files });
    const { page } = await browser.open();
    await waitForWorkbench(page);
    await setGitHubSettings(page, github.apiUrl);
    const started = Date.now();
    await openByAddress(page, "octo/thousand");
    await expect.poll(() => page.getByText("Imported 1,000 files").count(), { timeout: 30_000 }).toBe(1);
    const ms = Date.now() - started;
    const api = github.requests.filter((r) => r.path.startsWith("/api/")).length;
    const raw = github.requests.filter((r) => r.path.startsWith("/raw/")).length;
    console.log(`github e2e: 1,000 files opened in ${ms} ms (Open clicked to the workspace shown, options step included), ${api} API requests, ${raw} raw downloads`);
    expect(api).toBe(3);
    expect(raw).toBe(1000);
    expect(ms).toBeLessThan(10_000);
  });
});
