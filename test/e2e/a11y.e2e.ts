// Accessibility in the built app: axe-core (a dev dependency, injected here only, never bundled)
// finds no critical or serious violation in webcode's own markup on the everyday states: the
// workbench, Settings, a chat with a finished turn and with a pending permission card, the sessions
// drawer, the Changes view, and the import, share and export dialogs.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { zipSync, strToU8 } from "fflate";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { MOD, runInTerminal, waitForTerminal, waitForWorkbench } from "../support/browser";
import { chat, configureProvider, scripted, sendMessage, transcript, useAgentBrowser } from "./agent-helpers";

const browser = useAgentBrowser();
// Evaluated through the devtools protocol: the app's CSP (rightly) refuses inline script tags.
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/**
 * Monaco's and xterm's own internals are theirs, not ours (the options we give them, such as
 * aria labels, are checked through the elements they put them on, which are not excluded).
 */
const THIRD_PARTY = [".monaco-editor .view-lines", ".monaco-editor .margin", ".monaco-editor .minimap", ".monaco-editor .overflow-guard > .scrollbar", ".xterm-rows", ".xterm-helpers .xterm-accessibility"];

interface Finding {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/** Critical and serious axe violations on the page as it is now. */
async function seriousViolations(page: Page): Promise<Finding[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async (exclude) => {
    const axe = (window as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: Array<{ id: string; impact: string; help: string; nodes: Array<{ target: unknown[]; failureSummary?: string }> }> }> } }).axe;
    const result = await axe.run({ include: [document], exclude: exclude.map((s) => [s]) }, { resultTypes: ["violations"] });
    return result.violations
      .filter((v) => v.impact === "critical" || v.impact === "serious")
      .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 6).map((n) => `${JSON.stringify(n.target)} ${n.failureSummary ?? ""}`) }));
  }, THIRD_PARTY);
}

async function expectClean(page: Page, state: string): Promise<void> {
  const findings = await seriousViolations(page);
  expect.soft(findings, `${state}: ${JSON.stringify(findings, null, 1)}`).toEqual([]);
}

describe("accessibility (axe-core)", () => {
  it("finds no critical or serious violation on the workbench, Settings, chat, permission card, sessions, Changes and the transfer dialogs", async () => {
    const server = await browser.startServer(
      scripted(
        [
          { chunks: [{ type: "text", text: "Hello! The workspace has a **README**." }] },
          { chunks: [{ type: "tool-call", name: "read", input: { filePath: "README.md" } }] },
          { chunks: [{ type: "tool-call", name: "edit", input: { filePath: "README.md", oldString: "# Welcome to your workspace", newString: "# Hello" } }] },
          { chunks: [{ type: "text", text: "Done." }] },
        ],
        "Greeting",
      ),
    );
    const app = await browser.open();
    const { page } = app;
    await waitForWorkbench(page);
    await expectClean(page, "workbench");

    // The Search view, with results.
    await waitForTerminal(page);
    await runInTerminal(page, "printf 'const needle = 1;\\n' > needle.ts && echo done-setup");
    await page.keyboard.press(`${MOD}+Shift+f`);
    const search = page.getByRole("textbox", { name: "Search", exact: true });
    await search.fill("needle");
    await expect.poll(() => page.getByRole("region", { name: "Search" }).getByRole("status").innerText(), { timeout: 10_000 }).toMatch(/result/);
    await expectClean(page, "Search view");
    await page.getByRole("tablist", { name: "Side panels" }).getByRole("tab", { name: "Chat" }).click();

    await page.getByRole("button", { name: "Settings", exact: true }).click();
    await expect.poll(() => page.getByRole("dialog", { name: "Settings" }).count()).toBe(1);
    await expectClean(page, "Settings");
    await page.keyboard.press("Escape");
    await expect.poll(() => page.getByRole("dialog", { name: "Settings" }).count()).toBe(0);

    await configureProvider(page, { baseUrl: server.url, edits: "ask" });
    await sendMessage(page, "Say hello.");
    await expect.poll(() => transcript(page), { timeout: 30_000 }).toContain("The workspace has a");
    await expect.poll(() => chat(page).getByRole("button", { name: "Send" }).count(), { timeout: 10_000 }).toBe(1);
    await expectClean(page, "chat with a finished turn");

    await sendMessage(page, "Retitle the README.");
    const card = chat(page).getByRole("group", { name: "The agent wants to change files" });
    await expect.poll(() => card.count(), { timeout: 30_000 }).toBe(1);
    await expectClean(page, "chat with a pending permission card");
    await card.getByRole("button", { name: "Allow once" }).click();
    await expect.poll(() => transcript(page), { timeout: 30_000 }).toContain("Done.");
    await expect.poll(() => chat(page).getByRole("button", { name: "Send" }).count(), { timeout: 10_000 }).toBe(1);

    await chat(page).getByRole("button", { name: "Changes" }).click();
    const diff = chat(page).getByRole("region", { name: "Diff of README.md" });
    await expect.poll(() => diff.getAttribute("data-diff-ready"), { timeout: 20_000 }).toBe("true");
    await expectClean(page, "Changes view");
    await chat(page).getByRole("button", { name: "Changes" }).click();

    await chat(page).getByRole("button", { name: "Sessions", exact: true }).click();
    await expect.poll(() => chat(page).getByRole("navigation", { name: "Sessions" }).count()).toBe(1);
    await expectClean(page, "sessions drawer");
    await page.keyboard.press("Escape");

    await page.getByRole("button", { name: "Share", exact: true }).click();
    const share = page.getByRole("dialog", { name: "Share" });
    await expect.poll(() => share.count()).toBe(1);
    await expect.poll(() => share.getByRole("textbox", { name: "Share link" }).count(), { timeout: 10_000 }).toBe(1);
    await expectClean(page, "Share dialog");
    await page.keyboard.press("Escape");
    await expect.poll(() => share.count()).toBe(0);

    await page.getByRole("button", { name: "Export zip" }).click();
    const exportDialog = page.getByRole("dialog", { name: "Export zip" });
    await expect.poll(() => exportDialog.getByRole("combobox", { name: "What to export" }).isEnabled()).toBe(true);
    await expectClean(page, "Export dialog");
    await page.keyboard.press("Escape");
    await expect.poll(() => exportDialog.count()).toBe(0);

    const zip = zipSync({ "demo/README.md": strToU8("# Demo\n"), "demo/src/index.js": strToU8("console.log(1);\n") });
    const [chooser] = await Promise.all([page.waitForEvent("filechooser"), page.getByRole("button", { name: "Import zip" }).click()]);
    await chooser.setFiles({ name: "demo.zip", mimeType: "application/zip", buffer: Buffer.from(zip) });
    const importDialog = page.getByRole("dialog", { name: "Import" });
    await expect.poll(() => importDialog.getByRole("button", { name: "Import" }).count(), { timeout: 10_000 }).toBe(1);
    await expectClean(page, "Import dialog");
    // Focus is in the dialog (not left on <body> when the reading step gave way to the options).
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest("[role=dialog]")?.getAttribute("aria-label"))).toBe("Import");
    await page.keyboard.press("Escape");
    await expect.poll(() => importDialog.count()).toBe(0);
    expect(app.errors).toEqual([]);
  });

  it("runs the terminal in xterm's screen-reader mode when asked in Settings or hinted by the page, with its output readable", async () => {
    const hinted = await browser.open("?screenReader=1");
    await waitForWorkbench(hinted.page);
    await waitForTerminal(hinted.page);
    const tree = (page: Page) => page.locator(".pane-terminal .xterm-accessibility-tree");
    await expect.poll(() => tree(hinted.page).count()).toBe(1);
    await runInTerminal(hinted.page, "echo spoken-output");
    await expect.poll(() => tree(hinted.page).innerText()).toContain("spoken-output");
    await browser.close(hinted);

    const { page, errors } = await browser.open();
    await waitForWorkbench(page);
    await waitForTerminal(page);
    expect(await tree(page).count()).toBe(0);
    await page.getByRole("button", { name: "Settings", exact: true }).click();
    await page.getByRole("dialog", { name: "Settings" }).getByLabel("Terminal screen reader mode").selectOption("on");
    // Applies to the running terminal at once.
    await expect.poll(() => tree(page).count()).toBe(1);
    await page.keyboard.press("Escape");
    expect(errors).toEqual([]);
  });
});
