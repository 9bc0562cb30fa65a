// Security of sharing and the page itself, in Chromium on the built app: a `#share=` link asks
// before it opens anything; a share with malformed tool parts cannot blank the app (not even after
// a reload); and the Content Security Policy holds while the IDE does its work (Monaco and its
// workers, xterm and the runtime, the zip worker, the share dialog).
import { zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { RECORD_VERSION, type PartRecord } from "../../src/storage";
import { encodeShareLink } from "../../src/transfer";
import { fixedShareSource } from "../fixtures/share-source";
import { configureProvider } from "./agent-helpers";
import { baseUrl, runInTerminal, terminalText, treeItem, waitForTerminal, waitForWorkbench, useBrowser, type AppPage, storedWorkspaceNames } from "../support/browser";

const browser = useBrowser();

/** A fresh context whose page records page errors, console errors and CSP violations. */
async function freshPage(): Promise<{ app: AppPage; violations: () => Promise<string[]> }> {
  const context = await browser.chromium().newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const app: AppPage = { context, page, errors: [] };
  browser.track(app);
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as { __csp?: string[] }).__csp = seen;
    document.addEventListener("securitypolicyviolation", (event) => seen.push(`${event.effectiveDirective} blocked ${event.blockedURI || "inline"} (${event.sourceFile}:${event.lineNumber})`));
  });
  const consoleCsp: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) consoleCsp.push(message.text());
  });
  page.on("pageerror", (error) => app.errors.push(`pageerror: ${error.message}`));
  const violations = async () => [...consoleCsp, ...(await page.evaluate(() => (window as { __csp?: string[] }).__csp ?? []))];
  return { app, violations };
}

const appUrl = (fragment = "") => new URL(`?runtime=browser${fragment}`, baseUrl()).toString();

/** The fixed session plus tool parts whose input and metadata have the wrong types everywhere. */
function hostileLink(): string {
  const source = fixedShareSource();
  const part = (id: string, tool: string, input: unknown, metadata: Record<string, unknown> = {}) =>
    ({ v: RECORD_VERSION, id, sessionId: "ses_fixed", messageId: "msg_2", type: "tool", callId: id, tool, state: { status: "completed", input, output: "ok", title: "", metadata, start: 1, end: 2 } }) as PartRecord;
  source.parts.push(
    part("prt_h1", "todowrite", { todos: [{ content: { a: 1 }, status: "pending" }, { content: "Real item", status: 7 }, { content: "Shown item", status: "pending" }] }),
    part("prt_h2", "task", { description: { x: 1 } }, { summary: [null, { tool: { a: 1 }, status: 3, title: { b: 2 } }], sessionId: { id: 1 } }),
    part("prt_h3", "bash", { command: { c: 1 } }, { output: { o: 1 }, exitCode: "1" }),
  );
  return encodeShareLink(source, { now: 1_700_000_000_000 }).fragment!;
}

describe("share links from the address bar", () => {
  it("ask before opening: Cancel creates nothing, the fragment is gone, and a reload does not ask again", async () => {
    const { app } = await freshPage();
    const { page } = app;
    await page.goto(appUrl(encodeShareLink(fixedShareSource(), { now: 1_700_000_000_000 }).fragment!));
    await waitForWorkbench(page);
    const question = page.getByRole("alertdialog", { name: "Open shared session?" });
    await expect.poll(() => question.count(), { timeout: 15_000 }).toBe(1);
    expect(await question.innerText()).toContain('"Add a greeting"');
    expect(page.url()).not.toContain("share=");
    expect(await storedWorkspaceNames(page)).toEqual(["My workspace"]);
    await question.getByRole("button", { name: "Cancel" }).click();
    await expect.poll(() => question.count()).toBe(0);
    await page.waitForTimeout(500);
    expect(await storedWorkspaceNames(page)).toEqual(["My workspace"]);
    expect(await page.getByRole("region", { name: "Read-only shared session" }).count()).toBe(0);
    await page.reload();
    await waitForWorkbench(page);
    await page.waitForTimeout(500);
    expect(await page.getByRole("alertdialog", { name: "Open shared session?" }).count()).toBe(0);
    expect(app.errors).toEqual([]);
  });

  it("a link pasted into an already-open tab (only the fragment changes, no reload) asks the same question", async () => {
    const { app } = await freshPage();
    const { page } = app;
    await page.goto(appUrl());
    await waitForWorkbench(page);
    // Marks this document: a reload would lose it.
    await page.evaluate(() => ((window as { __sameDocument?: boolean }).__sameDocument = true));
    await page.goto(appUrl(encodeShareLink(fixedShareSource(), { now: 1_700_000_000_000 }).fragment!));
    const question = page.getByRole("alertdialog", { name: "Open shared session?" });
    await expect.poll(() => question.count(), { timeout: 15_000 }).toBe(1);
    expect(await page.evaluate(() => (window as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    expect(await question.innerText()).toContain('"Add a greeting"');
    expect(page.url()).not.toContain("share=");
    await question.getByRole("button", { name: "Open" }).click();
    await expect.poll(() => page.getByRole("region", { name: "Read-only shared session" }).count(), { timeout: 15_000 }).toBe(1);
    expect(await storedWorkspaceNames(page)).toEqual(["My workspace", "Shared: Add a greeting"]);
    expect(app.errors).toEqual([]);
  });

  it("a share with malformed tool parts opens, shows what it can, and survives Continue and a reload", async () => {
    const { app } = await freshPage();
    const { page } = app;
    // The chat shows transcripts once a model is set up (a local address that is never called).
    await page.goto(appUrl());
    await waitForWorkbench(page);
    await configureProvider(page, { baseUrl: "http://127.0.0.1:9/v1" });
    // Changing only the fragment does not load the page again, but the open tab asks all the same.
    await page.goto(appUrl(hostileLink()));
    await page.getByRole("alertdialog", { name: "Open shared session?" }).getByRole("button", { name: "Open" }).click();
    const banner = page.getByRole("region", { name: "Read-only shared session" });
    await expect.poll(() => banner.count(), { timeout: 20_000 }).toBe(1);
    await banner.getByRole("button", { name: "Continue" }).click();
    await expect.poll(() => banner.count(), { timeout: 20_000 }).toBe(0);

    // The continued session renders in the chat: the valid todo is shown, the rest is left out.
    await page.getByRole("tab", { name: "Chat" }).click();
    const todos = page.getByRole("list", { name: "Todo list" });
    await expect.poll(() => todos.count(), { timeout: 20_000 }).toBe(1);
    expect(await todos.innerText()).toContain("Shown item");
    expect(await page.getByText("2 items could not be shown (not valid todos).").count()).toBe(1);
    // The app is still all there, and stays so after a reload (this workspace is now the last one).
    for (const step of ["before reload", "after reload"]) {
      expect(await page.getByRole("tree", { name: "Files" }).count(), step).toBe(1);
      expect(await page.getByRole("button", { name: "Share", exact: true }).count(), step).toBe(1);
      if (step === "before reload") {
        await page.reload();
        await waitForWorkbench(page);
        await page.getByRole("tab", { name: "Chat" }).click();
        await expect.poll(() => page.getByRole("list", { name: "Todo list" }).count(), { timeout: 20_000 }).toBe(1);
      }
    }
    expect(app.errors).toEqual([]);
  });
});

describe("content security policy", () => {
  it("is in force, and the IDE works under it: editor and TypeScript worker, terminal, zip import, share dialog", async () => {
    const { app, violations } = await freshPage();
    const { page } = app;
    await page.goto(appUrl());
    await waitForWorkbench(page);
    const policy = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute("content");
    expect(policy).toContain("script-src 'self' 'wasm-unsafe-eval';");
    expect(policy).toContain("object-src 'none'");

    // It is enforced: an injected inline script does not run (and is reported as a violation).
    await page.evaluate(() => {
      const script = document.createElement("script");
      script.textContent = "window.__inlineRan = true";
      document.body.appendChild(script);
    });
    expect(await page.evaluate(() => (window as { __inlineRan?: boolean }).__inlineRan)).toBeUndefined();
    await expect.poll(async () => (await violations()).some((v) => v.startsWith("script-src-elem blocked inline"))).toBe(true);
    const baseline = (await violations()).length;

    // A zip import (the unzip worker), then a TypeScript file in Monaco (its language worker).
    const zip = zipSync({ "demo/src/main.ts": new TextEncoder().encode("export const answer: number = 'forty-two';\n"), "demo/README.md": new TextEncoder().encode("# Demo\n") });
    const [chooser] = await Promise.all([page.waitForEvent("filechooser"), page.getByRole("button", { name: "Import zip" }).click()]);
    await chooser.setFiles({ name: "demo.zip", mimeType: "application/zip", buffer: Buffer.from(zip) });
    const importDialog = page.getByRole("dialog", { name: "Import" });
    await expect.poll(() => importDialog.count()).toBe(1);
    await importDialog.getByRole("button", { name: "Import" }).click();
    await expect.poll(() => treeItem(page, "src").count(), { timeout: 30_000 }).toBe(1);
    await treeItem(page, "src").click();
    await expect.poll(() => treeItem(page, "main.ts").count()).toBe(1);
    await treeItem(page, "main.ts").dblclick();
    await expect.poll(() => page.locator(".monaco-host .view-lines").innerText(), { timeout: 20_000 }).toContain("answer");
    // The TypeScript worker runs: it marks the type error.
    await expect.poll(() => page.locator(".monaco-host .squiggly-error").count(), { timeout: 30_000 }).toBeGreaterThan(0);

    // The terminal and the runtime.
    await waitForTerminal(page);
    await runInTerminal(page, "echo csp-ok-$((6*7))");
    await expect.poll(() => terminalText(page), { timeout: 15_000 }).toContain("csp-ok-42");

    // The share dialog compresses a link.
    await page.getByRole("button", { name: "Share", exact: true }).click();
    const share = page.getByRole("dialog", { name: "Share" });
    await expect.poll(() => share.getByRole("textbox", { name: "Share link" }).count(), { timeout: 20_000 }).toBe(1);

    expect((await violations()).slice(baseline)).toEqual([]);
    expect(app.errors).toEqual([]);
  });
});
