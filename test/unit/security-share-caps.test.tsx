// @vitest-environment happy-dom
// Issue 9, point 7: caps on messages and parts per share (refused with a clear message past them,
// on opening and already when sharing), and the transcript rendered slice by slice.
import "../support/happy-dom-node-name";
import { afterEach, describe, expect, it } from "vitest";
import { RECORD_VERSION, openStorage, type MessageRecord, type PartRecord, type SessionRecord } from "../../src/storage";
import {
  SHARE_FORMAT,
  SHARE_MAX_MESSAGES,
  SHARE_MAX_PARTS,
  SHARE_MAX_PARTS_PER_MESSAGE,
  SHARE_VERSION,
  ShareError,
  decodeShareInWorker,
  decodeShareLink,
  encodeShareLink,
  handleShareDecodeRequest,
  type ShareDecodeRequest,
  openShare,
  restoreShareEnvelope,
} from "../../src/transfer";
import { newestWithin } from "../../src/ui/chat/message-list";
import { SharedTranscript } from "../../src/ui/share/shared-transcript";
import { render, settle } from "./ui-chat-render";

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const model = { providerId: "p", modelId: "m" };
const usage = { input: 1, output: 1, reasoning: 0, cacheRead: 0, cacheWrite: 0 };

/** An envelope of `turns` user/assistant pairs, each assistant message with `partsEach` text parts. */
function envelope(turns: number, partsEach: number) {
  const messages: unknown[] = [];
  const parts: unknown[] = [];
  for (let i = 0; i < turns; i++) {
    messages.push({ id: `u${i}`, role: "user", createdAt: i, agent: "build", model });
    messages.push({ id: `a${i}`, role: "assistant", createdAt: i, parentId: `u${i}`, agent: "build", model, tokens: usage, cost: 0 });
    parts.push({ id: `pu${i}`, messageId: `u${i}`, type: "text", text: `question ${i}` });
    for (let j = 0; j < partsEach; j++) parts.push({ id: `pa${i}_${j}`, messageId: `a${i}`, type: "text", text: `answer ${i}.${j}` });
  }
  return { format: SHARE_FORMAT, version: SHARE_VERSION, createdAt: 1, session: { title: "Big", agent: "build" }, messages, parts, files: [], omitted: [] };
}

function refusal(raw: unknown): ShareError {
  try {
    restoreShareEnvelope(raw);
  } catch (error) {
    if (error instanceof ShareError) return error;
    throw error;
  }
  throw new Error("the share was accepted");
}

describe("share caps", () => {
  it("accept a share at the caps", () => {
    expect(SHARE_MAX_MESSAGES).toBe(2_000);
    const atCaps = envelope(SHARE_MAX_MESSAGES / 2, SHARE_MAX_PARTS / (SHARE_MAX_MESSAGES / 2) - 1);
    expect(atCaps.parts.length).toBe(SHARE_MAX_PARTS);
    expect(restoreShareEnvelope(atCaps).envelope.parts).toHaveLength(SHARE_MAX_PARTS);
  });

  it("refuse more messages, more parts, or a message with too many parts, saying so", () => {
    const messages = refusal(envelope(SHARE_MAX_MESSAGES / 2 + 1, 0));
    expect(messages.reason).toBe("too-large");
    expect(messages.message).toBe("This share holds 2,002 messages (the limit is 2,000), more than webcode opens. Ask the sender to share a shorter session (a new one, or this one after compacting it).");
    expect(refusal(envelope(100, SHARE_MAX_PARTS / 100)).message).toMatch(/^This share holds 20,100 message parts \(the limit is 20,000\)/);
    expect(refusal(envelope(1, SHARE_MAX_PARTS_PER_MESSAGE + 1)).message).toMatch(/a message of more than 1,000 parts \(the limit per message\)/);
  });

  it("are checked when sharing too, before a link that cannot open is made", () => {
    const session: SessionRecord = { v: RECORD_VERSION, id: "s", workspaceId: "w", title: "t", createdAt: 1, updatedAt: 1, agent: "build", model, permission: [], tokens: usage, cost: 0, todos: [] };
    const messages: MessageRecord[] = [];
    for (let i = 0; i <= SHARE_MAX_MESSAGES; i++) messages.push({ v: RECORD_VERSION, id: `u${i}`, sessionId: "s", role: "user", createdAt: i, agent: "build", model });
    expect(() => encodeShareLink({ session, messages, parts: [] as PartRecord[], files: [] })).toThrow(/a share holds at most 2,000 messages and 20,000 parts/);
  });
});

describe("the shared transcript", () => {
  it("renders slice by slice, saying how far it got, until every message is shown", async () => {
    const storage = await openStorage({ name: `share-caps-${Math.random()}` });
    cleanups.push(() => storage.close());
    const { session } = await openShare(storage, restoreShareEnvelope(envelope(30, 9)), { now: 5 });
    const commits: number[] = [];
    const view = await render(<SharedTranscript storage={storage} session={session} slice={50} />);
    cleanups.push(() => view.unmount());
    for (let i = 0; i < 50 && !view.container.querySelector(".shared-transcript"); i++) await settle();
    // The first slice: about 50 parts (user messages hold 1, assistant ones 9), not all 300.
    const first = view.container.querySelectorAll(".shared-message").length;
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThan(60);
    expect(view.container.querySelector('[role="status"]')?.textContent).toMatch(/^Showing \d+ of 60 messages…$/);
    for (let i = 0; i < 200 && view.container.querySelectorAll(".shared-message").length < 60; i++) {
      commits.push(view.container.querySelectorAll(".shared-message").length);
      await settle();
    }
    expect(view.container.querySelectorAll(".shared-message").length).toBe(60);
    expect(new Set(commits).size).toBeGreaterThan(3);
    expect(view.container.querySelector('[role="status"]')).toBeNull();
    expect(view.container.textContent).toContain("answer 29.8");
  });

  it("the chat mounts the newest messages within a part budget", () => {
    const entry = (parts: number) => ({ info: {} as never, parts: new Array(parts).fill({}) });
    expect(newestWithin([entry(1), entry(300), entry(1), entry(300)], 40, 400)).toBe(2);
    expect(newestWithin([entry(1), entry(900)], 40, 400)).toBe(1);
    expect(newestWithin([entry(1), entry(1), entry(1)], 2, 400)).toBe(2);
  });
});

describe("decoding a share off the main thread", () => {
  /** A worker that runs the real handler, answering asynchronously like a real one. */
  const fakeWorker = () => {
    const worker = {
      onmessage: null as ((event: { data: unknown }) => void) | null,
      onerror: null,
      terminated: false,
      postMessage(message: unknown) {
        handleShareDecodeRequest(message as ShareDecodeRequest, (response) => setTimeout(() => worker.onmessage?.({ data: structuredClone(response) }), 0));
      },
      terminate() {
        worker.terminated = true;
      },
    };
    return worker;
  };

  it("gives the same result as decoding in the page, and the same refusals", async () => {
    const session: SessionRecord = { v: RECORD_VERSION, id: "s", workspaceId: "w", title: "Worker", createdAt: 1, updatedAt: 1, agent: "build", model, permission: [], tokens: usage, cost: 0, todos: [] };
    const link = encodeShareLink({ session, messages: [], parts: [], files: [{ v: RECORD_VERSION, workspaceId: "w", path: "a.txt", kind: "file", data: "hello", mtime: 1 }] }, { now: 1 }).fragment!;
    const worker = fakeWorker();
    expect(await decodeShareInWorker({ type: "share-link", link }, () => worker)).toEqual(decodeShareLink(link));
    expect(worker.terminated).toBe(true);
    const refused = await decodeShareInWorker({ type: "share-link", link: link.slice(0, -20) }, fakeWorker).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ShareError);
    expect((refused as ShareError).reason).toBe("damaged");
  });
});
