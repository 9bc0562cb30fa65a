// The one registry of requests waiting for the user (permission asks and questions).
import { describe, expect, it } from "vitest";
import { PendingRequests } from "../../src/agent/pending-requests";

describe("PendingRequests", () => {
  it("answers a request once, lists what waits per session, and forgets what was taken", async () => {
    const requests = new PendingRequests<{ id: string; sessionId: string }, string, number>();
    const a = requests.open({ id: "a", sessionId: "s1" }, 1, undefined, () => undefined);
    void requests.open({ id: "b", sessionId: "s2" }, 2, undefined, () => undefined);
    expect(requests.list().map((p) => p.id)).toEqual(["a", "b"]);
    expect(requests.list("s2").map((p) => p.id)).toEqual(["b"]);
    expect(requests.peek("b")?.extra).toBe(2);
    const taken = requests.take("a");
    expect(taken?.extra).toBe(1);
    taken?.resolve("yes");
    await expect(a).resolves.toBe("yes");
    expect(requests.take("a")).toBeUndefined();
    expect(requests.list().map((p) => p.id)).toEqual(["b"]);
  });

  it("withdraws a request when its signal aborts, and refuses one opened on an aborted signal", async () => {
    const requests = new PendingRequests<{ id: string; sessionId: string }, string>();
    const withdrawn: string[] = [];
    const controller = new AbortController();
    const answer = requests.open({ id: "q", sessionId: "s" }, undefined, controller.signal, (p) => withdrawn.push(p.id));
    controller.abort(new Error("stopped"));
    await expect(answer).rejects.toThrow("stopped");
    expect(withdrawn).toEqual(["q"]);
    expect(requests.list()).toEqual([]);
    await expect(requests.open({ id: "r", sessionId: "s" }, undefined, controller.signal, () => undefined)).rejects.toThrow("stopped");
    expect(requests.list()).toEqual([]);
  });
});
