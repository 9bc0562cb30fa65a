// Asking the browser to keep webcode's storage: checked without a prompt, asked once per page, and
// the answer kept for the status bar.
import { describe, expect, it } from "vitest";
import { createStoragePersistence } from "../../src/ui/app/storage-persistence";

function fakeManager(persisted: boolean, grant: boolean) {
  const calls: string[] = [];
  let current = persisted;
  return {
    calls,
    manager: {
      persisted: async () => {
        calls.push("persisted");
        return current;
      },
      persist: async () => {
        calls.push("persist");
        current = grant;
        return grant;
      },
    },
  };
}

describe("storage persistence", () => {
  it("checks without asking, then asks once and keeps the answer", async () => {
    const { manager, calls } = fakeManager(false, false);
    const persistence = createStoragePersistence(manager);
    expect(persistence.store.getState().state).toBe("unknown");
    expect(await persistence.check()).toBe("not-persistent");
    expect(calls).toEqual(["persisted"]);
    expect(await persistence.request()).toBe("not-persistent");
    expect(await persistence.request()).toBe("not-persistent");
    expect(calls.filter((c) => c === "persist")).toHaveLength(1);
    expect(persistence.store.getState().state).toBe("not-persistent");
  });

  it("becomes persistent when the browser grants it, and does not ask when it already is", async () => {
    const granted = fakeManager(false, true);
    const persistence = createStoragePersistence(granted.manager);
    expect(await persistence.request()).toBe("persistent");
    expect(persistence.store.getState().state).toBe("persistent");
    const already = fakeManager(true, false);
    expect(await createStoragePersistence(already.manager).request()).toBe("persistent");
    expect(already.calls).toEqual(["persisted"]);
  });

  it("is unsupported without a storage manager, or when it throws", async () => {
    expect(await createStoragePersistence(undefined).request()).toBe("unsupported");
    const throwing = createStoragePersistence({ persisted: () => Promise.reject(new Error("no")), persist: () => Promise.reject(new Error("no")) });
    expect(await throwing.check()).toBe("unsupported");
    expect(await throwing.request()).toBe("unsupported");
  });
});
