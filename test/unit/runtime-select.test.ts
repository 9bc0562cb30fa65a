import { describe, expect, it, vi } from "vitest";
import { toDisposable } from "../../src/base";
import {
  WorkspaceFiles,
  describeFallback,
  parseRuntimeOverride,
  selectRuntime,
  type FallbackReason,
  type Runtime,
  type SelectRuntimeOptions,
} from "../../src/runtime";
import { openStorage } from "../../src/storage";

let counter = 0;

function fakeRuntime(kind: Runtime["kind"], files: WorkspaceFiles): Runtime & { disposed: boolean } {
  const runtime = {
    kind,
    capabilities: { node: kind === "webcontainer", npm: kind === "webcontainer", servers: kind === "webcontainer" },
    fs: files,
    disposed: false,
    exec: async () => ({ output: "", exitCode: 0 }),
    openShell: () => ({ write() {}, onData: () => toDisposable(() => undefined), resize() {}, dispose() {} }),
    onServerReady: () => toDisposable(() => undefined),
    dispose() {
      runtime.disposed = true;
    },
  };
  return runtime;
}

async function options(overrides: Partial<SelectRuntimeOptions> = {}) {
  const storage = await openStorage({ name: `runtime-select-${counter++}` });
  const files = await WorkspaceFiles.open(storage, "ws");
  const reasons: FallbackReason[] = [];
  const boots: AbortSignal[] = [];
  const base: SelectRuntimeOptions = {
    files,
    crossOriginIsolated: true,
    browserSupported: true,
    createBrowser: (reason) => {
      reasons.push(reason);
      return fakeRuntime("browser", files);
    },
    bootWebContainer: async (signal) => {
      boots.push(signal);
      return fakeRuntime("webcontainer", files);
    },
    ...overrides,
  };
  return { base, reasons, boots, files };
}

describe("selectRuntime", () => {
  it("uses WebContainer when isolated, supported and booting in time", async () => {
    const { base, reasons } = await options();
    const selection = await selectRuntime(base);
    expect(selection.runtime.kind).toBe("webcontainer");
    expect(selection.fallback).toBeUndefined();
    expect(reasons).toEqual([]);
  });

  it("falls back without trying when not isolated or unsupported", async () => {
    const notIsolated = await options({ crossOriginIsolated: false });
    expect(await selectRuntime(notIsolated.base)).toMatchObject({ runtime: { kind: "browser" }, fallback: { kind: "not-isolated" } });
    expect(notIsolated.boots).toHaveLength(0);
    const unsupported = await options({ browserSupported: false });
    expect(await selectRuntime(unsupported.base)).toMatchObject({ fallback: { kind: "unsupported-browser" } });
    expect(unsupported.boots).toHaveLength(0);
  });

  it("falls back quickly when boot hangs, aborts the boot and disposes a late runtime", async () => {
    const { base, files } = await options();
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      let arrive!: (runtime: Runtime) => void;
      let bootSignal: AbortSignal | undefined;
      const pending = selectRuntime({
        ...base,
        timeoutMs: 15_000,
        bootWebContainer: (signal) => {
          bootSignal = signal;
          return new Promise((resolve) => (arrive = resolve));
        },
      });
      await vi.advanceTimersByTimeAsync(15_000);
      const selection = await pending;
      expect(selection.runtime.kind).toBe("browser");
      expect(selection.fallback).toEqual({ kind: "boot-timeout", timeoutMs: 15_000 });
      expect(bootSignal?.aborted).toBe(true);
      const late = fakeRuntime("webcontainer", files);
      arrive(late);
      await vi.advanceTimersByTimeAsync(0);
      expect(late.disposed).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it("falls back within a short real timeout too", async () => {
    const { base } = await options({ timeoutMs: 50, bootWebContainer: () => new Promise(() => undefined) });
    const started = Date.now();
    const selection = await selectRuntime(base);
    expect(selection.fallback).toEqual({ kind: "boot-timeout", timeoutMs: 50 });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("reports a boot failure with its message", async () => {
    const { base } = await options({
      bootWebContainer: async () => {
        throw new Error("Unable to create more instances");
      },
    });
    expect(await selectRuntime(base)).toMatchObject({
      runtime: { kind: "browser" },
      fallback: { kind: "boot-failed", message: "Unable to create more instances" },
    });
    const sync = await options({
      bootWebContainer: () => {
        throw new Error("sync throw");
      },
    });
    expect((await selectRuntime(sync.base)).fallback).toEqual({ kind: "boot-failed", message: "sync throw" });
  });

  it("?runtime=browser forces the browser runtime; ?runtime=webcontainer tries even when not isolated", async () => {
    const forced = await options({ override: "browser" });
    expect(await selectRuntime(forced.base)).toMatchObject({ runtime: { kind: "browser" }, fallback: { kind: "forced" } });
    expect(forced.boots).toHaveLength(0);

    const tried = await options({ override: "webcontainer", crossOriginIsolated: false });
    expect((await selectRuntime(tried.base)).runtime.kind).toBe("webcontainer");

    const failed = await options({
      override: "webcontainer",
      crossOriginIsolated: false,
      bootWebContainer: async () => {
        throw new Error("SharedArrayBuffer is not defined");
      },
    });
    expect((await selectRuntime(failed.base)).fallback).toEqual({ kind: "boot-failed", message: "SharedArrayBuffer is not defined" });
  });
});

describe("parseRuntimeOverride", () => {
  it("reads the runtime parameter", () => {
    expect(parseRuntimeOverride("?runtime=browser")).toBe("browser");
    expect(parseRuntimeOverride("runtime=webcontainer&x=1")).toBe("webcontainer");
    expect(parseRuntimeOverride("?a=b&runtime=WebContainer")).toBe("webcontainer");
    expect(parseRuntimeOverride("?runtime=node")).toBeUndefined();
    expect(parseRuntimeOverride("")).toBeUndefined();
  });
});

describe("describeFallback", () => {
  it("says what happened and that node, npm and dev servers are unavailable", () => {
    const reasons: FallbackReason[] = [
      { kind: "not-isolated" },
      { kind: "unsupported-browser" },
      { kind: "boot-timeout", timeoutMs: 15_000 },
      { kind: "boot-failed", message: "kaputt" },
      { kind: "forced" },
    ];
    for (const reason of reasons) {
      const notice = describeFallback(reason);
      expect(notice.title.length).toBeGreaterThan(0);
      expect(notice.detail).toMatch(/node, npm and dev servers/);
      expect(notice.unavailable.join(" ")).toMatch(/node/);
      expect(notice.unavailable.join(" ")).toMatch(/npm/);
      expect(notice.unavailable.join(" ")).toMatch(/dev servers/);
    }
    expect(describeFallback({ kind: "not-isolated" }).detail).toMatch(/cross-origin isolated/);
    expect(describeFallback({ kind: "boot-timeout", timeoutMs: 15_000 }).detail).toMatch(/15 s/);
    expect(describeFallback({ kind: "boot-failed", message: "kaputt" }).detail).toContain("kaputt");
    expect(describeFallback({ kind: "forced" }).detail).toContain("?runtime=browser");
  });
});
