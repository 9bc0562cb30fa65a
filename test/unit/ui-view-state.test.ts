// Continuity: a workspace's remembered view (tabs, active tab, view states, side view) is read back
// per workspace, and anything malformed in storage is dropped rather than trusted.
import { describe, expect, it } from "vitest";
import { MAX_REMEMBERED_TABS, forgetViewState, loadViewState, saveViewState } from "../../src/ui/app/workspace-view-state";

function memoryStore() {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
  };
}

describe("workspace view state", () => {
  it("round-trips per workspace", () => {
    const store = memoryStore();
    saveViewState(store, "ws1", { tabs: ["a.ts", "b.ts"], active: "b.ts", viewStates: { "b.ts": { line: 3 } }, panel: "search" });
    saveViewState(store, "ws2", { tabs: ["c.ts"], active: "c.ts", viewStates: {} });
    expect(loadViewState(store, "ws1")).toEqual({ tabs: ["a.ts", "b.ts"], active: "b.ts", viewStates: { "b.ts": { line: 3 } }, panel: "search" });
    expect(loadViewState(store, "ws2")).toEqual({ tabs: ["c.ts"], active: "c.ts", viewStates: {}, panel: undefined });
    forgetViewState(store, "ws1");
    expect(loadViewState(store, "ws1")).toEqual({ tabs: [], viewStates: {} });
  });

  it("drops malformed values and caps the tab count", () => {
    const store = memoryStore();
    store.setItem("webcode.view.x", "{not json");
    expect(loadViewState(store, "x")).toEqual({ tabs: [], viewStates: {} });
    store.setItem("webcode.view.x", JSON.stringify({ tabs: ["a", 3, null, "b"], active: "zzz", viewStates: { a: 5, b: { ok: 1 }, c: { stale: 1 } }, panel: 7 }));
    expect(loadViewState(store, "x")).toEqual({ tabs: ["a", "b"], active: undefined, viewStates: { b: { ok: 1 } }, panel: undefined });
    saveViewState(store, "y", { tabs: Array.from({ length: MAX_REMEMBERED_TABS + 10 }, (_, i) => `f${i}`), viewStates: {} });
    expect(loadViewState(store, "y").tabs).toHaveLength(MAX_REMEMBERED_TABS);
  });

  it("works without storage and when storage throws", () => {
    expect(loadViewState(undefined, "x")).toEqual({ tabs: [], viewStates: {} });
    const throwing = { getItem: () => { throw new Error("blocked"); }, setItem: () => { throw new Error("full"); }, removeItem: () => undefined };
    expect(loadViewState(throwing, "x")).toEqual({ tabs: [], viewStates: {} });
    expect(() => saveViewState(throwing, "x", { tabs: [], viewStates: {} })).not.toThrow();
  });
});
