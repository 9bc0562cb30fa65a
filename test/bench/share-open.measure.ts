// Opening a share at the caps (issue 9, point 7): in headless Chromium on the built app, a share
// of 2,000 messages and 20,000 parts is pasted into the address bar and opened; long tasks are
// observed with the Long Tasks API until the Shared view shows the last message. Reports the
// longest task (target: at most 200 ms), how many there were, and the time until all is shown.
import { describe, it } from "vitest";
import { RECORD_VERSION, type MessageRecord, type PartRecord, type SessionRecord } from "../../src/storage";
import { SHARE_MAX_MESSAGES, SHARE_MAX_PARTS, encodeShareLink } from "../../src/transfer";
import { waitForWorkbench } from "../support/browser";
import { useBuiltApp } from "./built-app";
import { report } from "./report";

const app = useBuiltApp();
const usage = { input: 1, output: 1, reasoning: 0, cacheRead: 0, cacheWrite: 0 };
const model = { providerId: "p", modelId: "m" };

/** `turns` user/assistant pairs; each answer has `partsPerAnswer` parts (markdown text and finished tool calls). */
function shareOf(turns: number, partsPerAnswer: number): string {
  const session: SessionRecord = { v: RECORD_VERSION, id: "s", workspaceId: "w", title: "Big share", createdAt: 1, updatedAt: 1, agent: "build", model, permission: [], tokens: usage, cost: 0, todos: [] };
  const messages: MessageRecord[] = [];
  const parts: PartRecord[] = [];
  for (let i = 0; i < turns; i++) {
    messages.push({ v: RECORD_VERSION, id: `u${i}`, sessionId: "s", role: "user", createdAt: i, agent: "build", model });
    messages.push({ v: RECORD_VERSION, id: `a${i}`, sessionId: "s", role: "assistant", createdAt: i, parentId: `u${i}`, agent: "build", model, tokens: usage, cost: 0, completedAt: i });
    parts.push({ v: RECORD_VERSION, id: `pu${i}`, sessionId: "s", messageId: `u${i}`, type: "text", text: `Question ${i}: why does the test at line ${i} fail?` });
    for (let j = 0; j < partsPerAnswer; j++) {
      parts.push(
        j % 3 === 0
          ? ({ v: RECORD_VERSION, id: `pa${i}_${j}`, sessionId: "s", messageId: `a${i}`, type: "text", text: `Answer ${i}.${j}: the **fixture** is stale; see \`src/a${j}.ts\`.` } as PartRecord)
          : ({ v: RECORD_VERSION, id: `pa${i}_${j}`, sessionId: "s", messageId: `a${i}`, type: "tool", callId: `c${i}_${j}`, tool: "read", state: { status: "completed", input: { filePath: `src/a${j}.ts` }, output: "export const a = 1;\n".repeat(10), title: `src/a${j}.ts`, metadata: {}, start: 1, end: 2 } } as PartRecord),
      );
    }
  }
  return encodeShareLink({ session, messages, parts, files: [] }, { now: 1, cap: 100_000_000 }).fragment!;
}

describe("opening a share at the caps", () => {
  it("2,000 messages, 20,000 parts", async () => {
    const fragment = shareOf(SHARE_MAX_MESSAGES / 2, SHARE_MAX_PARTS / (SHARE_MAX_MESSAGES / 2) - 1);
    const context = await app.browser().newContext({ viewport: { width: 1440, height: 900 } });
    try {
      const page = await context.newPage();
      await page.goto(app.url());
      await waitForWorkbench(page);
      await page.evaluate(() => {
        const seen: number[] = [];
        (window as { __long?: number[] }).__long = seen;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) seen.push(Math.round(entry.duration));
        }).observe({ type: "longtask" });
      });
      const started = Date.now();
      await page.evaluate((hash) => (location.hash = hash), fragment);
      const question = page.getByRole("alertdialog", { name: "Open shared session?" });
      await question.waitFor({ timeout: 120_000 });
      await question.getByRole("button", { name: "Open" }).click();
      // A plain DOM query: Playwright's role queries walk the whole (large) page in its main thread
      // and would be measured as the very long tasks this looks for.
      await page.waitForFunction((n) => document.querySelector('ol.shared-transcript[aria-busy="false"]')?.childElementCount === n, SHARE_MAX_MESSAGES, {
        polling: 250,
        timeout: 300_000,
      });
      const elapsed = Date.now() - started;
      const long = await page.evaluate(() => (window as { __long?: number[] }).__long ?? []);
      const note = "headless Chromium, built app, share pasted into the address bar and opened";
      report({ name: "Share at the caps: longest main-thread task while opening", value: Math.max(0, ...long), unit: "ms", target: "<= 200", note });
      report({ name: "Share at the caps: long tasks (> 50 ms) while opening", value: long.length, unit: "tasks", note });
      report({ name: "Share at the caps: time until every message is shown", value: elapsed, unit: "ms", note });
    } finally {
      await context.close();
    }
  }, 600_000);
});
