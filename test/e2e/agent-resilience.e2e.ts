// The agent in the built app when things go wrong: a reload in the middle of a stream, a bad key
// (401, fixed in Settings without a reload), rate limiting with retry-after (429) and a connection
// dropped mid-stream. The fake OpenAI-compatible server runs on 127.0.0.1; the page calls it directly.
import { describe, expect, it } from "vitest";
import { waitForWorkbench } from "../support/browser";
import type { FakeChunk } from "../support/fake-model-server";
import { FAKE_KEY, agentRequests, chat, messagesOf, scripted, sendMessage, transcript, useAgentBrowser } from "./agent-helpers";

const browser = useAgentBrowser();

describe("agent resilience in the IDE", () => {
  it("keeps a session consistent across a reload in the middle of a stream, and continues it", async () => {
    const sentences: FakeChunk[] = Array.from({ length: 60 }, (_, i) => ({ type: "text", text: `Sentence ${i + 1} of a long answer. ` }));
    const server = await browser.startServer(
      scripted([
        { chunks: sentences, chunkDelayMs: 150 },
        { chunks: [{ type: "text", text: "Picking up where I stopped: the rest of the answer." }] },
      ]),
    );
    const app = await browser.openWithProvider(server);
    const { page } = app;
    await sendMessage(page, "Write a long answer.");
    await expect.poll(() => transcript(page), { timeout: 30_000 }).toContain("Sentence 6 of a long answer.");
    expect(await transcript(page)).not.toContain("Sentence 60");

    await page.reload();
    await waitForWorkbench(page);
    // The session reopens with what was written before the reload, marked as unfinished.
    const reply = chat(page).getByRole("article", { name: "Reply from build" });
    await expect.poll(() => reply.count(), { timeout: 20_000 }).toBe(1);
    await expect.poll(() => reply.innerText()).toContain("This reply stopped before it finished: the page was closed or reloaded");
    const before = await reply.innerText();
    expect(before).toContain("Sentence 1 of a long answer.");
    expect(before).toContain("Send a message to continue where it stopped; if storage is full, free space first (Settings → Storage).");
    expect(before).not.toContain("Sentence 60");
    expect(await chat(page).getByRole("article", { name: "Your message" }).innerText()).toContain("Write a long answer.");

    await sendMessage(page, "Please continue.");
    await expect.poll(() => transcript(page), { timeout: 30_000 }).toContain("Picking up where I stopped");
    await expect.poll(() => chat(page).locator(".status-line").count()).toBe(0);
    // The model saw the interrupted reply's text before the new message.
    const history = JSON.stringify(messagesOf(agentRequests(server.requests)[1]!));
    expect(history).toContain("Sentence 1 of a long answer.");
    expect(history.indexOf("Sentence 1 of a long answer.")).toBeLessThan(history.indexOf("Please continue."));
    expect(app.errors).toEqual([]);
  });

  it("shows a refused key (401) with the action to take, and a key fixed in Settings works without a reload", async () => {
    const server = await browser.startServer(scripted([{ chunks: [{ type: "text", text: "Hello with the right key." }] }]), { requireKey: FAKE_KEY });
    const app = await browser.openWithProvider(server, { key: "sk-wrong-key-000000" });
    const { page } = app;
    await sendMessage(page, "Hello?");
    const error = chat(page).getByRole("alert");
    await expect.poll(() => error.count(), { timeout: 30_000 }).toBe(1);
    expect(await error.innerText()).toMatch(/check your API key for OpenAI-compatible/i);
    // Never retried: one request, refused.
    expect(agentRequests(server.requests)).toHaveLength(1);

    await error.getByRole("button", { name: "Open Settings" }).click();
    const dialog = page.getByRole("dialog", { name: "Settings" });
    await dialog.getByRole("button", { name: "Edit OpenAI-compatible" }).click();
    await dialog.getByLabel("API key").fill(FAKE_KEY);
    await dialog.getByRole("button", { name: "Save" }).click();
    await dialog.getByRole("button", { name: "Close" }).click();

    await sendMessage(page, "Hello again?");
    await expect.poll(() => transcript(page), { timeout: 30_000 }).toContain("Hello with the right key.");
    expect(agentRequests(server.requests).at(-1)!.headers.authorization).toBe(`Bearer ${FAKE_KEY}`);
    expect(app.errors).toEqual([]);
  });

  it("waits out a 429 with retry-after, showing the countdown, then succeeds", async () => {
    const server = await browser.startServer(
      scripted([
        { error: { status: 429, headers: { "retry-after": "3" }, message: "Rate limit reached, slow down." } },
        { chunks: [{ type: "text", text: "Answer after the rate limit." }] },
      ]),
    );
    const app = await browser.openWithProvider(server);
    const { page } = app;
    await sendMessage(page, "Hello?");
    const status = chat(page).locator(".status-retry");
    await expect.poll(() => status.count(), { timeout: 20_000 }).toBe(1);
    const first = await status.innerText();
    expect(first).toMatch(/Retrying in [123]s \(attempt 1\)/);
    expect(first).toContain("Rate limit reached");
    // The countdown counts down.
    await expect.poll(() => status.innerText().catch(() => "gone"), { timeout: 5_000, interval: 200 }).not.toBe(first);
    await expect.poll(() => transcript(page), { timeout: 20_000 }).toContain("Answer after the rate limit.");
    const requests = agentRequests(server.requests);
    expect(requests).toHaveLength(2);
    expect(app.errors).toEqual([]);
  });

  it("retries a connection dropped mid-stream and shows the failed attempt", async () => {
    const server = await browser.startServer(
      scripted([
        { chunks: [{ type: "text", text: "Half an ans" }, { type: "drop" }] },
        { chunks: [{ type: "text", text: "The whole answer, second time round." }] },
      ]),
    );
    const app = await browser.openWithProvider(server);
    const { page } = app;
    await sendMessage(page, "Hello?");
    await expect.poll(() => transcript(page), { timeout: 30_000 }).toContain("The whole answer, second time round.");
    await expect.poll(() => chat(page).locator(".status-line").count()).toBe(0);
    expect(agentRequests(server.requests)).toHaveLength(2);
    // The failed attempt is noted; its half-streamed text is gone (the retry streamed it again).
    const text = await transcript(page);
    expect(text).toMatch(/Attempt 1 failed: /);
    expect(text).not.toContain("Half an ans");
    expect(app.errors).toEqual([]);
  });
});
