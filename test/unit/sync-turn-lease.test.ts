// The turn lease's rules on two documents wired by hand (no server), to reach the cases a quick
// local server never produces: two devices that each decided before the other's claim arrived.
import * as Y from "yjs";
import { afterEach, describe, expect, it } from "vitest";
import { TurnLeases, type TurnClaim } from "../../src/storage/sync/turn-lease";

const leases: TurnLeases[] = [];
afterEach(() => {
  for (const lease of leases.splice(0)) lease.dispose();
});

function device(name: string, doc = new Y.Doc()) {
  const lease = new TurnLeases(doc, { device: name, name, acknowledged: async () => undefined, settleMs: 0, heartbeatMs: 50, expireMs: 1000 });
  leases.push(lease);
  return { doc, lease };
}

/** Delivers everything each side has that the other lacks (a link that was slow until now). */
function exchange(a: Y.Doc, b: Y.Doc): void {
  Y.applyUpdate(b, Y.encodeStateAsUpdate(a, Y.encodeStateVector(b)));
  Y.applyUpdate(a, Y.encodeStateAsUpdate(b, Y.encodeStateVector(a)));
}

describe("TurnLeases on a slow link", () => {
  it("two devices that both started a turn (each before the other's claim arrived): the larger nonce stops once they meet", async () => {
    const a = device("Desktop");
    const b = device("Laptop");
    const stopped: string[] = [];
    const hold = (who: string) => () => new Promise<string>((resolve) => setTimeout(() => resolve(who), 300));
    const ta = a.lease.run("s1", hold("A"), () => stopped.push("A"));
    const tb = b.lease.run("s1", hold("B"), () => stopped.push("B"));
    await new Promise((resolve) => setTimeout(resolve, 20)); // both running, neither knows
    expect(stopped).toEqual([]);
    exchange(a.doc, b.doc);
    const claimA = [...a.lease.claims.values()].find((c) => (c as TurnClaim).device === "Desktop") as TurnClaim;
    const claimB = [...b.lease.claims.values()].find((c) => (c as TurnClaim).device === "Laptop") as TurnClaim;
    expect(stopped).toEqual([claimA.nonce < claimB.nonce ? "B" : "A"]);
    await Promise.all([ta, tb]);
  });

  it("a rival's live claim refuses a new turn at once; a running claim seen before deciding wins over a claiming one", async () => {
    const a = device("Desktop");
    const b = device("Laptop");
    const ta = a.lease.run("s2", () => new Promise((resolve) => setTimeout(resolve, 200)), () => undefined);
    await new Promise((resolve) => setTimeout(resolve, 10));
    exchange(a.doc, b.doc);
    expect(b.lease.holder("s2")).toMatchObject({ name: "Desktop", state: "running" });
    await expect(b.lease.run("s2", async () => "no", () => undefined)).rejects.toThrow("running a turn on Desktop");
    await ta;
    exchange(a.doc, b.doc);
    expect(b.lease.holder("s2")).toBeUndefined();
    await expect(b.lease.run("s2", async () => "yes", () => undefined)).resolves.toBe("yes");
  });

  it("a turn that ended on another device counts as just ended for a while (its last records may still be on their way)", async () => {
    let now = 1_000;
    const a = device("Desktop");
    const b = new TurnLeases(new Y.Doc(), { device: "Laptop", name: "Laptop", acknowledged: async () => undefined, settleMs: 0, heartbeatMs: 50, expireMs: 1000, now: () => now });
    leases.push(b);
    const ta = a.lease.run("s3", () => new Promise((resolve) => setTimeout(resolve, 50)), () => undefined);
    await new Promise((resolve) => setTimeout(resolve, 10));
    exchange(a.doc, b.doc);
    expect(b.endedRecently("s3")).toBe(false); // still running: holder() says so
    await ta;
    exchange(a.doc, b.doc);
    expect(b.holder("s3")).toBeUndefined();
    expect(b.endedRecently("s3")).toBe(true);
    expect(a.lease.endedRecently("s3")).toBe(false); // its own turn
    now += 5_000;
    expect(b.endedRecently("s3")).toBe(false);
  });
});
