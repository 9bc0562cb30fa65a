import { describe, expect, it } from "vitest";
import { newId } from "../../src/base";
import { restoreList } from "../../src/storage/restore";

function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // Stands in for parsing a large record.
  }
}

describe("restoring a long list", () => {
  it("lets the page run between slices, keeps the order and reports invalid records", async () => {
    const values = Array.from({ length: 300 }, (_, i) => i);
    let timerRanAt: number | undefined;
    const restoredAt: number[] = [];
    setTimeout(() => (timerRanAt = performance.now()), 5);
    const invalid: unknown[] = [];
    const out = await restoreList(
      values,
      (value) => {
        busy(0.2);
        restoredAt.push(performance.now());
        if ((value as number) % 100 === 7) throw new Error(`bad ${String(value)}`);
        return (value as number) * 2;
      },
      (error) => invalid.push(error),
    );
    expect(out).toEqual(values.filter((v) => v % 100 !== 7).map((v) => v * 2));
    expect(invalid.map((e) => (e as Error).message)).toEqual(["bad 7", "bad 107", "bad 207"]);
    // 60 ms of work: a timer due after 5 ms ran before the last record was restored.
    expect(timerRanAt).toBeDefined();
    expect(timerRanAt!).toBeLessThan(restoredAt.at(-1)!);
  });

  it("a short list is restored without waiting", async () => {
    let timerRan = false;
    setTimeout(() => (timerRan = true), 0);
    expect(await restoreList([1, 2, 3], (v) => v)).toEqual([1, 2, 3]);
    expect(timerRan).toBe(false);
  });
});

describe("ids", () => {
  it("stay unique, time-ordered and well formed across many random pool refills", () => {
    const ids = Array.from({ length: 5000 }, () => newId("prt", 1_700_000_000_000));
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    for (const id of ids) expect(id).toMatch(/^prt_[0-9a-z]{21}$/);
    // The random tails differ (not one pool position reused).
    expect(new Set(ids.map((id) => id.slice(-8))).size).toBeGreaterThan(4990);
  });
});
