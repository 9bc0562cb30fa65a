// Spec §5: pending asks and the replies once / always / reject, with the errors from tools/tool.ts.
import { describe, expect, it } from "vitest";
import {
  DEFAULT_RULES,
  PermissionManager,
  bashPermission,
  ruleset,
  type PendingPermission,
  type PermissionReplied,
} from "../../src/agent/permission";
import { PermissionDeniedError, PermissionRejectedError, type PermissionRequest } from "../../src/agent";

function bash(command: string): PermissionRequest {
  return { permission: "bash", ...bashPermission(command), metadata: { command } };
}

function setup() {
  const asked: PendingPermission[] = [];
  const replied: PermissionReplied[] = [];
  const manager = new PermissionManager({ onAsked: (p) => asked.push(p), onReplied: (r) => replied.push(r) });
  const rules = [...DEFAULT_RULES, ...ruleset({ bash: "ask" })];
  return { manager, asked, replied, rules };
}

/** Settles a promise into a plain value so tests can check state without racing. */
function settle(promise: Promise<void>) {
  const state: { status: "pending" | "resolved" | "rejected"; error?: unknown } = { status: "pending" };
  promise.then(
    () => (state.status = "resolved"),
    (error: unknown) => {
      state.status = "rejected";
      state.error = error;
    },
  );
  return state;
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("PermissionManager", () => {
  it("resolves at once when every pattern is allowed, without asking", async () => {
    const { manager, asked } = setup();
    await manager.ask({ sessionId: "s", request: bash("ls && cat a"), rules: [...DEFAULT_RULES] });
    expect(asked).toHaveLength(0);
    expect(manager.pending()).toHaveLength(0);
  });

  it("throws PermissionDeniedError when any pattern is denied", async () => {
    const { manager, asked } = setup();
    const rules = [...DEFAULT_RULES, ...ruleset({ bash: { "rm *": "deny" } })];
    const error = await manager.ask({ sessionId: "s", request: bash("ls && rm x"), rules }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect((error as PermissionDeniedError).pattern).toBe("rm x");
    expect(asked).toHaveLength(0);
  });

  it("asks with the request, session, call and message, then resolves on 'once'", async () => {
    const { manager, asked, replied, rules } = setup();
    const state = settle(manager.ask({ sessionId: "s1", request: bash("npm test"), rules, callId: "c1", messageId: "m1" }));
    await tick();
    expect(state.status).toBe("pending");
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ sessionId: "s1", callId: "c1", messageId: "m1", permission: "bash", patterns: ["npm test"] });
    expect(manager.pending("s1").map((p) => p.id)).toEqual([asked[0]!.id]);
    expect(manager.pending("other")).toEqual([]);

    expect(manager.reply(asked[0]!.id, "once")).toBe(true);
    await tick();
    expect(state.status).toBe("resolved");
    expect(replied).toEqual([{ sessionId: "s1", requestId: asked[0]!.id, reply: "once" }]);
    // "once" grants nothing: the same command asks again.
    expect(manager.sessionRules("s1")).toEqual([]);
    void manager.ask({ sessionId: "s1", request: bash("npm test"), rules }).catch(() => {});
    expect(asked).toHaveLength(2);
  });

  it("'always' adds session allow rules for the always patterns", async () => {
    const { manager, asked, rules } = setup();
    const first = settle(manager.ask({ sessionId: "s", request: bash("git status --short"), rules }));
    manager.reply(asked[0]!.id, "always");
    await tick();
    expect(first.status).toBe("resolved");
    expect(manager.sessionRules("s")).toEqual([{ permission: "bash", pattern: "git status *", action: "allow" }]);

    // Now covered without asking, also the bare command; other sessions and other commands still ask.
    await manager.ask({ sessionId: "s", request: bash("git status"), rules });
    expect(asked).toHaveLength(1);
    void manager.ask({ sessionId: "s", request: bash("git log"), rules }).catch(() => {});
    void manager.ask({ sessionId: "other", request: bash("git status"), rules }).catch(() => {});
    expect(asked).toHaveLength(3);
  });

  it("'always' approves other pending asks of the session that the grant now covers", async () => {
    const { manager, asked, replied, rules } = setup();
    const a = settle(manager.ask({ sessionId: "s", request: bash("npm install react"), rules }));
    const b = settle(manager.ask({ sessionId: "s", request: bash("npm install vue"), rules }));
    const c = settle(manager.ask({ sessionId: "s", request: bash("npm test"), rules }));
    const d = settle(manager.ask({ sessionId: "t", request: bash("npm install x"), rules }));
    manager.reply(asked[0]!.id, "always");
    await tick();
    expect([a.status, b.status, c.status, d.status]).toEqual(["resolved", "resolved", "pending", "pending"]);
    expect(replied.map((r) => [r.requestId, r.reply])).toEqual([
      [asked[0]!.id, "always"],
      [asked[1]!.id, "always"],
    ]);
    expect(manager.pending().map((p) => p.id)).toEqual([asked[2]!.id, asked[3]!.id]);
  });

  it("does not approve a pending ask only partly covered by the grant", async () => {
    const { manager, asked, rules } = setup();
    settle(manager.ask({ sessionId: "s", request: bash("ls"), rules }));
    const both = settle(manager.ask({ sessionId: "s", request: bash("ls && git push"), rules }));
    manager.reply(asked[0]!.id, "always");
    await tick();
    expect(both.status).toBe("pending");
  });

  it("'reject' throws PermissionRejectedError with the message and rejects the session's other asks", async () => {
    const { manager, asked, replied, rules } = setup();
    const a = settle(manager.ask({ sessionId: "s", request: bash("rm -rf dist"), rules }));
    const b = settle(manager.ask({ sessionId: "s", request: bash("npm test"), rules }));
    const c = settle(manager.ask({ sessionId: "t", request: bash("npm test"), rules }));
    manager.reply(asked[0]!.id, "reject", "use git clean instead");
    await tick();
    expect(a.status).toBe("rejected");
    expect(a.error).toBeInstanceOf(PermissionRejectedError);
    expect((a.error as Error).message).toContain("use git clean instead");
    expect(b.status).toBe("rejected");
    expect(b.error).toBeInstanceOf(PermissionRejectedError);
    // With a message the turn goes on: every rejected ask carries it to the model.
    expect((a.error as PermissionRejectedError).stopsTurn).toBe(false);
    expect((b.error as Error).message).toContain("use git clean instead");
    expect((b.error as PermissionRejectedError).stopsTurn).toBe(false);
    expect(c.status).toBe("pending");
    expect(replied.map((r) => r.reply)).toEqual(["reject", "reject"]);
    expect(replied[0]!.message).toBe("use git clean instead");
    expect(manager.pending()).toHaveLength(1);
  });

  it("a bare 'reject' stops the turn for every ask it rejects", async () => {
    const { manager, asked, rules } = setup();
    const a = settle(manager.ask({ sessionId: "s", request: bash("rm -rf dist"), rules }));
    const b = settle(manager.ask({ sessionId: "s", request: bash("npm test"), rules }));
    manager.reply(asked[0]!.id, "reject");
    await tick();
    expect((a.error as PermissionRejectedError).stopsTurn).toBe(true);
    expect((b.error as PermissionRejectedError).stopsTurn).toBe(true);
  });

  it("ignores replies to unknown or already answered asks", async () => {
    const { manager, asked, rules } = setup();
    settle(manager.ask({ sessionId: "s", request: bash("ls"), rules }));
    expect(manager.reply(asked[0]!.id, "once")).toBe(true);
    expect(manager.reply(asked[0]!.id, "reject")).toBe(false);
    expect(manager.reply("nope", "once")).toBe(false);
  });

  it("rejectAll rejects every pending ask of one session", async () => {
    const { manager, rules } = setup();
    const a = settle(manager.ask({ sessionId: "s", request: bash("ls"), rules }));
    const b = settle(manager.ask({ sessionId: "u", request: bash("ls"), rules }));
    manager.rejectAll("s");
    await tick();
    expect(a.status).toBe("rejected");
    expect(b.status).toBe("pending");
  });

  it("withdraws an ask when its signal aborts", async () => {
    const { manager, rules, replied } = setup();
    const controller = new AbortController();
    const a = settle(manager.ask({ sessionId: "s", request: bash("ls"), rules, signal: controller.signal }));
    controller.abort();
    await tick();
    expect(a.status).toBe("rejected");
    expect((a.error as Error).name).toBe("AbortError");
    expect(manager.pending()).toEqual([]);
    expect(replied.map((r) => r.reply)).toEqual(["reject"]);
  });

  it("asks with pattern * when a request has no patterns", async () => {
    const { manager } = setup();
    const request = { permission: "doom_loop", patterns: [], always: [], metadata: {} };
    const state = settle(manager.ask({ sessionId: "s", request, rules: [...DEFAULT_RULES] }));
    await tick();
    expect(state.status).toBe("pending");
    await manager.ask({ sessionId: "s", request: { ...request, permission: "read" }, rules: [...DEFAULT_RULES] });
  });
});
