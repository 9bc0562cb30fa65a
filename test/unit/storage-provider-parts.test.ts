// The part kinds of provider streams read back from IndexedDB through the restore step: provider
// tools and sources kept (with provider metadata on text, reasoning and tool parts), broken ones refused.
import { describe, expect, it } from "vitest";
import { RECORD_VERSION } from "../../src/storage/records";
import { restorePart } from "../../src/storage/restore";

const base = { v: RECORD_VERSION, id: "prt_1", sessionId: "ses_1", messageId: "msg_1" };

describe("restoring provider parts", () => {
  it("keeps provider tools, sources and provider metadata as stored", () => {
    const tool = { ...base, type: "provider-tool", callId: "srvtoolu_1", tool: "web_search", state: { status: "completed", input: { query: "q" }, output: [{ url: "https://a.example" }] }, providerMetadata: { anthropic: { x: 1 } } };
    const source = { ...base, type: "source", sourceType: "url", url: "https://a.example", title: "A" };
    const call = { ...base, type: "tool", callId: "c1", tool: "read", state: { status: "completed", input: {}, output: "", title: "", metadata: {}, start: 1, end: 2 }, providerMetadata: { google: { thoughtSignature: "sig" } } };
    expect(restorePart(structuredClone(tool))).toEqual(tool);
    expect(restorePart(structuredClone(source))).toEqual(source);
    expect(restorePart(structuredClone(call))).toEqual(call);
  });

  it("refuses a provider tool without a state and a source of unknown kind", () => {
    expect(() => restorePart({ ...base, type: "provider-tool", callId: "x", tool: "web_search" })).toThrow(/provider tool state/);
    expect(() => restorePart({ ...base, type: "source", sourceType: "video", url: "https://a.example" })).toThrow(/source type/);
  });
});

describe("a provider tool left running at a crash", () => {
  it("is closed as an error when the reply is closed as interrupted", async () => {
    const { closeInterrupted } = await import("../../src/agent/session/recovery");
    const updated: unknown[] = [];
    const store = { updatePart: (part: unknown) => updated.push(part), updateMessage: (message: unknown) => updated.push(message) };
    const info = { v: RECORD_VERSION, id: "msg_1", sessionId: "ses_1", role: "assistant", createdAt: 1, parentId: "msg_0", agent: "build", model: { providerId: "p", modelId: "m" }, tokens: { input: 0, output: 0, reasoning: 0, cacheRead: 0, cacheWrite: 0 }, cost: 0 } as const;
    const search = { ...base, type: "provider-tool", callId: "srvtoolu_1", tool: "web_search", state: { status: "running", input: { query: "q" } } } as const;
    const closed = closeInterrupted({ store, now: () => 5 } as unknown as Parameters<typeof closeInterrupted>[0], [{ info, parts: [search] }] as unknown as Parameters<typeof closeInterrupted>[1]);
    expect(closed).toBe(1);
    expect(updated[0]).toMatchObject({ type: "provider-tool", state: { status: "error", input: { query: "q" }, output: "interrupted" } });
  });
});
