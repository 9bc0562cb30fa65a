// Storage fills up during an agent turn (issue 31): with a small quota (Chromium's own, through
// CDP) mostly used by files the terminal wrote, the agent writes a small file and a large one, in
// both orders. What the tool cards say, what the model is told and what a reload shows agree: the
// write that fit is stored and says "Done"; the one that did not says "Failed" with "No space left
// on device", the model gets that error as the call's result, and the turn ends saying storage is
// full and where to free it — never "interrupted".
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { openWithQuota, runInTerminal, terminalText, treeItem, waitForTerminal, waitForWorkbench } from "../support/browser";
import type { FakeModelServer } from "../support/fake-model-server";
import { agentRequests, chat, configureProvider, messagesOf, scripted, sendMessage, transcript, useAgentBrowser } from "./agent-helpers";

const browser = useAgentBrowser();

/** The figures: a 3 MB quota, eight 267 KB files from the terminal, a 15-byte and a 600 KB write. */
const QUOTA = 3 * 1024 * 1024;
const SMALL = "agent-small.txt";
const SMALL_CONTENT = "small and kept\n";
const LARGE = "agent-large.txt";

/** 600 KB that does not compress (Chromium compresses large IndexedDB values). */
function incompressible(bytes: number): string {
  const random = new Uint8Array((bytes * 3) / 4);
  for (let i = 0; i < random.length; i += 65536) crypto.getRandomValues(random.subarray(i, Math.min(random.length, i + 65536)));
  return Buffer.from(random).toString("base64");
}


/** The status each tool card shows, in order ("write tool call, Done" → "write: Done"). */
async function cardStatuses(page: Page): Promise<string[]> {
  const labels = await chat(page).locator(".tool-part").evaluateAll((cards) => cards.map((c) => c.getAttribute("aria-label") ?? ""));
  return labels.map((label) => label.replace(/ tool call, /, ": "));
}

/** Waits until a tool card is shown and the turn is over (no Stop button). */
async function turnEnded(page: Page): Promise<void> {
  const stop = chat(page).getByRole("button", { name: "Stop", exact: true });
  await expect
    .poll(async () => (await chat(page).locator(".tool-part").count()) > 0 && (await stop.count()) === 0, { timeout: 30_000 })
    .toBe(true)
    .catch(async (error: unknown) => {
      console.log("turn did not end:", (await chat(page).innerText()).slice(-2000), await page.getByRole("alert").allInnerTexts());
      throw error;
    });
}

/** Which of the agent's files IndexedDB holds. */
function storedPaths(page: Page): Promise<string[]> {
  return page.evaluate(
    () =>
      new Promise<string[]>((resolve) => {
        const request = indexedDB.open("webcode");
        request.onsuccess = () => {
          const keys = request.result.transaction("files").objectStore("files").getAll();
          keys.onsuccess = () => {
            resolve((keys.result as Array<{ path: string }>).map((r) => r.path).filter((p) => p.startsWith("agent-")).sort());
            request.result.close();
          };
        };
      }),
  );
}

/** The tool results the model was sent, by tool call id. */
function toolResults(server: FakeModelServer): Map<string, string> {
  const results = new Map<string, string>();
  for (const request of agentRequests(server.requests)) {
    for (const message of messagesOf(request)) {
      if (message.role === "tool" && message.tool_call_id) results.set(message.tool_call_id, String(message.content));
    }
  }
  return results;
}

describe("storage fills during an agent turn", () => {
  for (const order of ["small then large", "large then small"] as const) {
    it(`${order}: the cards, the model's tool results and a reload agree`, async () => {
      const small = { type: "tool-call" as const, id: "call_small", name: "write", input: { filePath: SMALL, content: SMALL_CONTENT } };
      const large = { type: "tool-call" as const, id: "call_large", name: "write", input: { filePath: LARGE, content: incompressible(600 * 1024) } };
      const calls = order === "small then large" ? [small, large] : [large, small];
      const server = await browser.startServer(
        scripted([
          { chunks: [calls[0]!] },
          { chunks: [calls[1]!] },
          { chunks: [{ type: "text", text: "Both written." }] },
          { chunks: [{ type: "text", text: "Both written." }] },
        ]),
      );
      const app = await openWithQuota(browser, QUOTA);
      const { page } = app;
      await waitForWorkbench(page);
      await waitForTerminal(page);
      await configureProvider(page, { baseUrl: server.url, edits: "allow" });
      await runInTerminal(page, "for i in 1 2 3 4 5 6 7 8; do head -c 200000 /dev/urandom | base64 > big$i.txt; done; echo made-$((6*7))");
      await expect.poll(() => terminalText(page), { timeout: 30_000 }).toContain("made-42");

      await sendMessage(page, "Write the two files");
      await turnEnded(page);
      const before = {
        cards: await cardStatuses(page),
        transcript: await transcript(page),
        tree: [await treeItem(page, calls[0]!.input.filePath).count(), await treeItem(page, calls[1]!.input.filePath).count()],
        stored: await storedPaths(page),
      };
      // Each card says what storage holds: "Done" exactly for the files stored and listed.
      for (const [i, call] of calls.entries()) {
        const card = before.cards[i];
        const stored = before.stored.includes(call.input.filePath);
        expect(card === "write: Done", `${call.input.filePath}: card ${card}, stored ${stored}`).toBe(stored);
        expect(before.tree[i]).toBe(stored ? 1 : 0);
      }
      // A refused write ends the turn with the reason and the way out, never as "interrupted".
      if (before.cards.some((c) => c !== "write: Done")) {
        expect(before.transcript).toMatch(/No space left on device|browser storage is full/);
        expect(before.transcript).toContain("Settings → Storage");
      }
      expect(before.transcript).not.toMatch(/interrupted|stopped before it finished/i);

      await page.reload();
      await waitForWorkbench(page);
      await expect.poll(() => cardStatuses(page), { timeout: 20_000 }).toHaveLength(before.cards.length);
      const after = {
        cards: await cardStatuses(page),
        transcript: await transcript(page),
        tree: [await treeItem(page, calls[0]!.input.filePath).count(), await treeItem(page, calls[1]!.input.filePath).count()],
        stored: await storedPaths(page),
      };
      expect(after.cards).toEqual(before.cards);
      expect(after.tree).toEqual(before.tree);
      expect(after.stored).toEqual(before.stored);
      // Not closed on load as unfinished (recovery.ts): every record of the turn was stored.
      expect(after.transcript).not.toMatch(/interrupted|stopped before it finished/i);

      // The model is told the same: a result for each call that ran, an error for each that failed.
      await sendMessage(page, "Go on");
      await expect.poll(() => agentRequests(server.requests).length, { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
      await expect.poll(() => transcript(page), { timeout: 30_000 }).toContain("Both written.");
      const results = toolResults(server);
      for (const [i, card] of before.cards.entries()) {
        const call = calls[i]!;
        const result = results.get(call.id) ?? "";
        if (card === "write: Done") expect(result).toBe(`Created ${call.input.filePath}.`);
        else expect(result).toMatch(/No space left on device|browser storage is full/);
      }
      expect(app.errors).toEqual([]);
    });
  }
});
