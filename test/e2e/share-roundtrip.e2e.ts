// Share links and .webcode files in a real browser: a session made in one browser context opens in
// a fresh one (no shared storage) with the same transcript and files, read-only with nothing
// running until Continue; secrets are left out; XSS payloads in titles, markdown, tool output and
// file names do nothing; tampered links are refused and create nothing.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { RECORD_VERSION, type FileRecord, type MessageRecord, type PartRecord, type SessionRecord } from "../../src/storage";
import { encodeShareFile, encodeShareLink } from "../../src/transfer";
import { fixedShareSource } from "../fixtures/share-source";
import { baseUrl, runInTerminal, terminalText, treeItem, waitForTerminal, waitForWorkbench, useBrowser, type AppPage, storedWorkspaceNames } from "../support/browser";

const browser = useBrowser();

const PWN = "window.__pwned=1";
const XSS_TITLE = `Greeting <img src=x onerror="${PWN}"> <script>${PWN}</script>`;
const XSS_MARKDOWN = [
  "Add a **greeting** to src/app.ts",
  `<img src=x onerror="${PWN};alert(1)">`,
  `<script>${PWN};alert(2)</script>`,
  `[click me](javascript:${PWN})`,
  `<a href="javascript:${PWN}">raw link</a>`,
  `<iframe src="javascript:${PWN}"></iframe>`,
].join("\n\n");
const XSS_OUTPUT = `<img src=x onerror="${PWN}"><script>${PWN}</script> wrote src/app.ts`;
const XSS_FILE = `notes/' onmouseover='${PWN}' x='.md`;
const FAKE_KEY = `sk-proj-${"A1b2C3d4E5".repeat(4)}`;
const FAKE_TOKEN = `ghp_${"x9Y8z7W6v5".repeat(4)}`;

/** A session with every kind of payload, for workspace `workspaceId`. */
function seedRecords(workspaceId: string): { session: SessionRecord; messages: MessageRecord[]; parts: PartRecord[]; files: FileRecord[] } {
  const now = Date.now();
  const usage = { input: 100, output: 20, reasoning: 0, cacheRead: 0, cacheWrite: 0 };
  const model = { providerId: "anthropic", modelId: "claude-sonnet-4-5" };
  const session: SessionRecord = { v: RECORD_VERSION, id: "ses_e2e_share", workspaceId, title: XSS_TITLE, createdAt: now, updatedAt: now, agent: "build", model, permission: [], tokens: usage, cost: 0, todos: [] };
  const messages: MessageRecord[] = [
    { v: RECORD_VERSION, id: "msg_e2e_1", sessionId: session.id, role: "user", createdAt: now, agent: "build", model },
    { v: RECORD_VERSION, id: "msg_e2e_2", sessionId: session.id, role: "assistant", createdAt: now + 1, completedAt: now + 2, parentId: "msg_e2e_1", agent: "build", model, finish: "stop", tokens: usage, cost: 0 },
  ];
  const part = (id: string, messageId: string, rest: object) => ({ v: RECORD_VERSION, id, sessionId: session.id, messageId, ...rest }) as PartRecord;
  const parts: PartRecord[] = [
    part("prt_e2e_1", "msg_e2e_1", { type: "text", text: XSS_MARKDOWN }),
    part("prt_e2e_2", "msg_e2e_2", { type: "text", text: "Done: the greeting is in **src/app.ts**." }),
    part("prt_e2e_3", "msg_e2e_2", {
      type: "tool",
      callId: "call_1",
      tool: "bash",
      state: { status: "completed", input: { command: `echo ${FAKE_TOKEN}` }, output: `${XSS_OUTPUT}\n${FAKE_TOKEN}`, title: `<img src=x onerror="${PWN}">`, metadata: {}, start: now, end: now + 1 },
    }),
    part("prt_e2e_4", "msg_e2e_2", { type: "file", mime: "text/html", filename: `<img src=x onerror="${PWN}">.html`, url: `javascript:${PWN}` }),
  ];
  const file = (path: string, data?: string): FileRecord => ({ v: RECORD_VERSION, workspaceId, path, kind: data === undefined ? "dir" : "file", ...(data !== undefined ? { data } : {}), mtime: now });
  const files = [
    file("src"),
    file("notes"),
    file("src/app.ts", 'export const greeting = "Hello from the shared session";\n'),
    file(XSS_FILE, `# Notes\n\n<img src=x onerror="${PWN}">\n`),
    file("config.js", `export const key = "${FAKE_KEY}";\n`),
    file(".env", `API_KEY=${FAKE_KEY}\n`),
  ];
  return { session, messages, parts, files };
}

/** Writes records straight into the app's IndexedDB (its public storage layout). */
async function seed(page: Page): Promise<void> {
  const workspaceId = await page.evaluate(
    () =>
      new Promise<string>((resolve, reject) => {
        const open = indexedDB.open("webcode");
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const request = open.result.transaction("settings").objectStore("settings").get("ui.lastWorkspaceId");
          request.onsuccess = () => {
            open.result.close();
            resolve((request.result as { value: string }).value);
          };
        };
      }),
  );
  const records = seedRecords(workspaceId);
  await page.evaluate(
    (r) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open("webcode");
        open.onsuccess = () => {
          const tx = open.result.transaction(["sessions", "messages", "parts", "files"], "readwrite");
          tx.objectStore("sessions").put(r.session);
          for (const m of r.messages) tx.objectStore("messages").put(m);
          for (const p of r.parts) tx.objectStore("parts").put(p);
          for (const f of r.files) tx.objectStore("files").put(f);
          tx.oncomplete = () => {
            open.result.close();
            resolve();
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
    records,
  );
}

/** A fresh browser context (its own storage) with a trap for injected script and dialogs. */
async function freshPage(): Promise<{ app: AppPage; dialogs: string[] }> {
  const context = await browser.chromium().newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const app: AppPage = { context, page, errors: [] };
  browser.track(app);
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on("pageerror", (error) => app.errors.push(`pageerror: ${error.message}`));
  return { app, dialogs };
}

const pwned = (page: Page) => page.evaluate(() => (window as { __pwned?: unknown }).__pwned);

describe("share links", () => {
  it("round-trips a session into a fresh browser: same transcript and files, secrets left out, read-only until Continue, no script runs", async () => {
    const sender = await browser.open();
    await sender.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(baseUrl()).origin });
    await waitForWorkbench(sender.page);
    await seed(sender.page);
    await sender.page.reload();
    await waitForWorkbench(sender.page);
    await expect.poll(() => treeItem(sender.page, "config.js").count()).toBe(1);

    await sender.page.getByRole("button", { name: "Share", exact: true }).click();
    const dialog = sender.page.getByRole("dialog", { name: "Share" });
    const linkField = dialog.getByRole("textbox", { name: "Share link" });
    await expect.poll(() => linkField.count(), { timeout: 20_000 }).toBe(1);
    // Secrets: both files and the transcript's token are found and left out by default.
    expect(await dialog.getByRole("checkbox", { name: /Leave out config\.js: OpenAI API key/ }).isChecked()).toBe(true);
    expect(await dialog.getByRole("checkbox", { name: /Leave out \.env: an environment file/ }).isChecked()).toBe(true);
    expect(await dialog.getByRole("checkbox", { name: /Redact key-like strings everywhere/ }).isChecked()).toBe(true);
    const leftOut = await dialog.getByRole("list", { name: "Left out of the share" }).innerText();
    expect(leftOut).toContain("config.js — left out by you");
    expect(leftOut).toContain(".env — left out by you");
    expect(await dialog.getByRole("status", { name: "Link size" }).innerText()).toMatch(/Link size: [\d.]+ (B|KB) of 1\.4 MB/);
    expect(await dialog.innerText()).not.toContain(FAKE_KEY);
    await dialog.screenshot({ path: "test-results/share-dialog.png" });
    await dialog.getByRole("button", { name: "Copy link" }).click();
    await expect.poll(() => dialog.getByText("Link copied to the clipboard.").count()).toBe(1);
    const link = await linkField.inputValue();
    expect(await sender.page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    expect(link).toMatch(/#share=v1\.[A-Za-z0-9_-]+$/);
    expect(link).not.toContain(FAKE_KEY);

    const { app: receiver, dialogs } = await freshPage();
    const { page } = receiver;
    await page.goto(link);
    await waitForWorkbench(page);
    // A link from the address bar asks first; nothing is written before Open.
    const question = page.getByRole("alertdialog", { name: "Open shared session?" });
    await expect.poll(() => question.count(), { timeout: 20_000 }).toBe(1);
    expect(await storedWorkspaceNames(page)).toEqual(["My workspace"]);
    await question.getByRole("button", { name: "Open" }).click();
    const banner = page.getByRole("region", { name: "Read-only shared session" });
    await expect.poll(() => banner.count(), { timeout: 20_000 }).toBe(1);
    // The fragment is gone from the address bar once read.
    expect(page.url()).not.toContain("share=");
    const transcript = page.getByRole("list", { name: "Shared transcript" });
    await expect.poll(() => transcript.count(), { timeout: 15_000 }).toBe(1);
    const text = await transcript.evaluate((el) => el.textContent ?? "");
    expect(text).toContain("Add a greeting to src/app.ts");
    expect(text).toContain("Done: the greeting is in src/app.ts.");
    expect(text).toContain("wrote src/app.ts");
    expect(text).not.toContain(FAKE_TOKEN);
    expect(text).toContain("[redacted github-token]");
    await transcript.locator("summary").first().click();
    expect(await page.getByRole("region", { name: "Shared session", exact: true }).getByRole("heading").first().innerText()).toBe(XSS_TITLE);
    // The files: the same, minus the ones left out.
    await expect.poll(() => treeItem(page, "src").count()).toBe(1);
    await treeItem(page, "src").click();
    await expect.poll(() => treeItem(page, "app.ts").count()).toBe(1);
    await treeItem(page, "notes").click();
    await expect.poll(() => treeItem(page, XSS_FILE.slice("notes/".length)).count()).toBe(1);
    await treeItem(page, XSS_FILE.slice("notes/".length)).hover();
    expect(await treeItem(page, "config.js").count()).toBe(0);
    expect(await treeItem(page, ".env").count()).toBe(0);
    // Nothing runs: no runtime, so no terminal, preview or tools; the notice says why.
    await expect.poll(() => page.getByRole("status", { name: "Read-only notice" }).filter({ hasText: "nothing runs here" }).count(), { timeout: 15_000 }).toBe(1);
    expect(await page.locator("[data-terminal-ready='true']").count()).toBe(0);
    await page.screenshot({ path: "test-results/share-opened.png" });
    // No payload did anything.
    expect(await page.locator("img[onerror], iframe, [onmouseover]").count()).toBe(0);
    expect(await page.locator('a[href^="javascript:"]').count()).toBe(0);
    expect(await pwned(page)).toBeUndefined();
    expect(dialogs).toEqual([]);

    // Continue: an editable copy opens; the terminal works in it.
    await banner.getByRole("button", { name: "Continue" }).click();
    await expect.poll(() => banner.count(), { timeout: 20_000 }).toBe(0);
    await waitForTerminal(page);
    await runInTerminal(page, "cat src/app.ts");
    await expect.poll(() => terminalText(page), { timeout: 15_000 }).toContain("Hello from the shared session");
    const names = await storedWorkspaceNames(page);
    expect(names).toHaveLength(3);
    expect(names.filter((n) => n.startsWith("Shared: "))).toHaveLength(1);
    expect(await pwned(page)).toBeUndefined();
    expect(dialogs).toEqual([]);
    expect(receiver.errors).toEqual([]);
  });

  it("refuses a tampered link, a link with a hostile file name, and a link from a newer version, creating nothing", async () => {
    // A fixed source and time: the same link every run, so the altered character is always the same.
    const good = encodeShareLink(fixedShareSource(), { now: 1_700_000_000_000 }).fragment!;
    const data = good.slice(good.indexOf(".") + 1);
    const middle = Math.floor(data.length / 2);
    const tampered = `#share=v1.${data.slice(0, middle)}${data[middle] === "A" ? "B" : "A"}${data.slice(middle + 1)}`;
    const hostileSource = fixedShareSource();
    hostileSource.files = [...hostileSource.files, { v: RECORD_VERSION, workspaceId: "ws_fixed", path: `<script>${PWN}</script>.js`, kind: "file", data: "x", mtime: 1 }];
    const hostile = encodeShareLink(hostileSource, { now: 1_700_000_000_000 }).fragment!;
    const cases: Array<[string, RegExp]> = [
      [tampered, /damaged or was changed/],
      [hostile, /damaged or was changed.*(?:not allowed|does not allow)/],
      [`#share=v9.${data}`, /newer version of webcode/],
      ["#share=v1.!!!", /damaged or was changed/],
    ];
    for (const [fragment, message] of cases) {
      const { app, dialogs } = await freshPage();
      await app.page.goto(new URL(`?runtime=browser${fragment}`, baseUrl()).toString());
      await waitForWorkbench(app.page);
      const alert = app.page.getByRole("region", { name: "Notifications" }).getByRole("alert");
      await expect.poll(() => alert.count(), { timeout: 15_000 }).toBe(1);
      expect(await alert.innerText(), fragment.slice(0, 40)).toMatch(message);
      expect(app.page.url()).not.toContain("share=");
      expect(await storedWorkspaceNames(app.page)).toEqual(["My workspace"]);
      expect(await app.page.getByRole("region", { name: "Read-only shared session" }).count()).toBe(0);
      expect(await pwned(app.page)).toBeUndefined();
      expect(dialogs).toEqual([]);
      await browser.close(app);
    }
  });

  it("opens a .webcode file from the Shared panel, read-only", async () => {
    const file = encodeShareFile(fixedShareSource());
    const { app } = await freshPage();
    const { page } = app;
    await page.goto(new URL("?runtime=browser", baseUrl()).toString());
    await waitForWorkbench(page);
    await page.getByRole("tab", { name: "Shared" }).click();
    const [chooser] = await Promise.all([page.waitForEvent("filechooser"), page.getByRole("button", { name: "Open .webcode file" }).click()]);
    await chooser.setFiles({ name: "greeting.webcode", mimeType: "application/octet-stream", buffer: Buffer.from(file.bytes) });
    await expect.poll(() => page.getByRole("region", { name: "Read-only shared session" }).count(), { timeout: 20_000 }).toBe(1);
    const panel = page.getByRole("region", { name: "Shared session", exact: true });
    expect(await panel.getByRole("heading").first().innerText()).toBe("Add a greeting");
    expect(await panel.innerText()).toContain("Opened from greeting.webcode");
    await expect.poll(() => treeItem(page, "src").count()).toBe(1);
    expect(app.errors).toEqual([]);
  });
});
