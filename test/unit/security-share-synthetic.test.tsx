// @vitest-environment happy-dom
// Issue 9, point 2: a share may not carry text the user cannot see but the model receives. The chat
// hides `synthetic` text parts and shows synthetic user messages as a bare divider; a restored share
// drops the flag, so every text it holds is shown, wherever it sits, in the Shared view and the chat.
import "../support/happy-dom-node-name";
import { afterEach, describe, expect, it } from "vitest";
import { openStorage, type Storage } from "../../src/storage";
import { SHARE_FORMAT, SHARE_VERSION, continueSharedSession, openShare, restoreShareEnvelope } from "../../src/transfer";
import { MessageView } from "../../src/ui/chat/message-view";
import { SharedTranscript, loadTranscript } from "../../src/ui/share/shared-transcript";
import { render, settle, type Rendered } from "./ui-chat-render";

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const model = { providerId: "p", modelId: "m" };
const usage = { input: 1, output: 1, reasoning: 0, cacheRead: 0, cacheWrite: 0 };

/**
 * Three turns; hidden (synthetic) text parts first, in the middle and last of user and assistant
 * messages, alone in a message, in the first and the last message, and whole synthetic user messages.
 */
function hostileEnvelope() {
  const messages = [
    { id: "u1", role: "user", createdAt: 1, agent: "build", model, synthetic: true },
    { id: "a1", role: "assistant", createdAt: 2, parentId: "u1", agent: "build", model, tokens: usage, cost: 0 },
    { id: "u2", role: "user", createdAt: 3, agent: "build", model },
    { id: "a2", role: "assistant", createdAt: 4, parentId: "u2", agent: "build", model, tokens: usage, cost: 0 },
    { id: "u3", role: "user", createdAt: 5, agent: "build", model, synthetic: true },
    { id: "a3", role: "assistant", createdAt: 6, parentId: "u3", agent: "build", model, tokens: usage, cost: 0 },
  ];
  const text = (id: string, messageId: string, value: string, synthetic?: boolean) => ({ id, messageId, type: "text", text: value, ...(synthetic && { synthetic }) });
  const parts = [
    text("p01", "u1", "HIDDEN-u1-only", true),
    text("p02", "a1", "HIDDEN-a1-first", true),
    text("p03", "a1", "visible a1"),
    text("p04", "u2", "HIDDEN-u2-first", true),
    text("p05", "u2", "visible u2"),
    text("p06", "u2", "HIDDEN-u2-middle", true),
    text("p07", "u2", "visible u2 again"),
    text("p08", "u2", "HIDDEN-u2-last", true),
    text("p09", "a2", "visible a2"),
    text("p10", "a2", "HIDDEN-a2-middle", true),
    text("p11", "a2", "visible a2 again"),
    text("p12", "a2", "HIDDEN-a2-last", true),
    text("p13", "u3", "HIDDEN-u3-not-flagged-but-message-is"),
    text("p14", "a3", "HIDDEN-a3-only", true),
  ];
  return { format: SHARE_FORMAT, version: SHARE_VERSION, createdAt: 1, session: { title: "Hostile", agent: "build", model }, messages, parts, files: [], omitted: [] };
}

const HIDDEN = hostileEnvelope()
  .parts.map((p) => p.text)
  .filter((t) => t.startsWith("HIDDEN"));

async function opened(): Promise<{ storage: Storage; sessionId: string }> {
  const storage = await openStorage({ name: `share-synthetic-${Math.random()}` });
  cleanups.push(() => storage.close());
  const restored = restoreShareEnvelope(hostileEnvelope());
  const { session } = await openShare(storage, restored, { now: 10 });
  return { storage, sessionId: session.id };
}

async function mount(node: React.ReactElement): Promise<Rendered> {
  const view = await render(node);
  cleanups.push(() => view.unmount());
  return view;
}

describe("a share with hidden (synthetic) text in every position", () => {
  it("is restored without any synthetic flag, on parts or messages", async () => {
    const restored = restoreShareEnvelope(hostileEnvelope());
    expect(restored.envelope.parts.filter((p) => "synthetic" in p)).toEqual([]);
    expect(restored.envelope.messages.filter((m) => "synthetic" in m)).toEqual([]);
    const { storage, sessionId } = await opened();
    const entries = await loadTranscript(storage, sessionId);
    expect(entries.map((e) => e.message.role === "user" && e.message.synthetic === true)).not.toContain(true);
    expect(entries.flatMap((e) => e.parts).filter((p) => p.type === "text" && p.synthetic)).toEqual([]);
  });

  it("shows every text in the Shared view", async () => {
    const { storage, sessionId } = await opened();
    const session = (await storage.sessions.get(sessionId))!;
    const view = await mount(<SharedTranscript storage={storage} session={session} />);
    for (let i = 0; i < 50 && !view.container.querySelector(".shared-transcript"); i++) await settle();
    for (const hidden of HIDDEN) expect(view.container.textContent, hidden).toContain(hidden);
  });

  it("shows every text in the chat, and in the chat of a continued copy", async () => {
    const { storage, sessionId } = await opened();
    const continued = await continueSharedSession(storage, sessionId, 20);
    for (const id of [sessionId, continued.session.id]) {
      const entries = await loadTranscript(storage, id);
      const view = await mount(
        <div>
          {entries.map((entry) => (
            <MessageView key={entry.message.id} entry={{ info: entry.message, parts: entry.parts }} busy={false} />
          ))}
        </div>,
      );
      expect(view.container.querySelectorAll(".message").length).toBe(6);
      for (const hidden of HIDDEN) expect(view.container.textContent, hidden).toContain(hidden);
    }
  });
});
