// Opening, switching, creating, renaming and deleting workspaces through the app shell's controller,
// over real storage (fake-indexeddb) and real WorkspaceFiles, with a recording fake runtime.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { toDisposable } from "../../src/base";
import { STARTER_README, WorkspaceFiles, createWorkspace, type FallbackReason, type Runtime } from "../../src/runtime";
import { openStorage, type Storage } from "../../src/storage";
import { FIRST_WORKSPACE_NAME, LAST_WORKSPACE_KEY, WorkspaceController, type AppServices } from "../../src/ui";

interface FakeRuntime extends Runtime {
  disposed: boolean;
  workspaceId: string;
}

function fakeRuntime(files: WorkspaceFiles): FakeRuntime {
  const runtime: FakeRuntime = {
    kind: "browser",
    capabilities: { node: false, npm: false, servers: false },
    fs: files,
    disposed: false,
    workspaceId: files.workspaceId,
    exec: async () => ({ output: "", exitCode: 0 }),
    openShell: () => {
      throw new Error("not used");
    },
    onServerReady: () => toDisposable(() => {}),
    dispose() {
      runtime.disposed = true;
    },
  };
  return runtime;
}

let counter = 0;
let storage: Storage;
let runtimes: FakeRuntime[];
let opened: WorkspaceFiles[];
let fallback: FallbackReason | undefined;
let failRuntime: Error | undefined;
let controller: WorkspaceController;

function services(): AppServices {
  return {
    storage,
    openFiles: async (id) => {
      const files = await WorkspaceFiles.open(storage, id, { persistDelayMs: 1 });
      opened.push(files);
      return files;
    },
    startRuntime: async (files) => {
      if (failRuntime) throw failRuntime;
      const runtime = fakeRuntime(files);
      runtimes.push(runtime);
      return { runtime, fallback };
    },
  };
}

/** The runtime starts in the background after the files open. */
const runtimeSettled = async () => {
  for (let i = 0; i < 20 && controller.store.getState().runtime.status === "starting"; i++) await new Promise((r) => setTimeout(r, 1));
};

beforeEach(async () => {
  storage = await openStorage({ name: `ui-workspaces-${counter++}-${Date.now()}` });
  runtimes = [];
  opened = [];
  fallback = { kind: "not-isolated" };
  failRuntime = undefined;
  controller = new WorkspaceController(services());
});

afterEach(async () => {
  await controller.dispose();
  storage.close();
});

describe("WorkspaceController", () => {
  it("creates the first workspace with the starter README on first run", async () => {
    await controller.start();
    const { current, workspaces } = controller.store.getState();
    expect(workspaces.map((w) => w.name)).toEqual([FIRST_WORKSPACE_NAME]);
    expect(current?.workspace.name).toBe(FIRST_WORKSPACE_NAME);
    expect(await current!.files.readText("README.md")).toBe(STARTER_README);
    expect(await storage.settings.get(LAST_WORKSPACE_KEY)).toBe(current!.workspace.id);
  });

  it("opens a workspace by id (a joined invite): created empty under that id when new, opened as it is when known", async () => {
    await controller.start();
    const first = controller.store.getState().current!.workspace;
    const joined = await controller.openOrCreate("ws_joined1", FIRST_WORKSPACE_NAME);
    expect(joined.id).toBe("ws_joined1");
    expect(joined.name).toBe(`${FIRST_WORKSPACE_NAME} (2)`); // the name was taken: a number is added
    expect(controller.store.getState().current?.workspace.id).toBe("ws_joined1");
    expect([...controller.store.getState().current!.files.entries()]).toEqual([]); // no starter README: files come by sync
    await controller.switchTo(first.id);
    const again = await controller.openOrCreate("ws_joined1", "Shared workspace");
    expect(again).toMatchObject({ id: "ws_joined1", name: `${FIRST_WORKSPACE_NAME} (2)` });
    expect(controller.store.getState().workspaces.map((w) => w.id).sort()).toEqual([first.id, "ws_joined1"].sort());
  });

  it("reports the runtime and its fallback reason once it has started", async () => {
    await controller.start();
    await runtimeSettled();
    const runtime = controller.store.getState().runtime;
    expect(runtime).toMatchObject({ status: "ready", fallback: { kind: "not-isolated" } });
  });

  it("says the runtime failed (and what to do) when it cannot start", async () => {
    failRuntime = new Error("boom");
    await controller.start();
    await runtimeSettled();
    const runtime = controller.store.getState().runtime;
    expect(runtime.status).toBe("failed");
    expect(runtime.status === "failed" && runtime.message).toMatch(/boom.*Reload/);
  });

  it("reopens the last opened workspace on the next visit", async () => {
    const a = await createWorkspace(storage, "Alpha", { seedReadme: false });
    const b = await createWorkspace(storage, "Beta", { seedReadme: false });
    await storage.settings.put(LAST_WORKSPACE_KEY, a.id);
    await controller.start();
    expect(controller.store.getState().current?.workspace.id).toBe(a.id);
    await controller.switchTo(b.id);
    await controller.dispose();

    controller = new WorkspaceController(services());
    await controller.start();
    expect(controller.store.getState().current?.workspace.id).toBe(b.id);
  });

  it("keeps each workspace's files separate across a switch and closes the old files and runtime", async () => {
    await controller.start();
    await runtimeSettled();
    const first = controller.store.getState().current!;
    await first.files.writeFile("only-in-first.txt", "1");
    const second = await controller.create("Second");
    await runtimeSettled();
    const now = controller.store.getState().current!;
    expect(now.workspace.id).toBe(second.id);
    expect(await now.files.exists("only-in-first.txt")).toBe(false);
    // A workspace created from the New workspace dialog starts with the starter README.
    expect(await now.files.readText("README.md")).toBe(STARTER_README);
    expect(runtimes[0]!.disposed).toBe(true);
    expect(runtimes[1]!.workspaceId).toBe(second.id);
    // The first workspace's write was stored before it closed.
    const reopened = await WorkspaceFiles.open(storage, first.workspace.id);
    expect(await reopened.readText("only-in-first.txt")).toBe("1");
    reopened.dispose();
  });

  it("renames the open workspace and persists the name", async () => {
    await controller.start();
    const id = controller.store.getState().current!.workspace.id;
    await controller.rename(id, "Renamed");
    expect(controller.store.getState().current?.workspace.name).toBe("Renamed");
    expect((await storage.workspaces.get(id))?.name).toBe("Renamed");
  });

  it("refuses a duplicate name with a message for the user", async () => {
    await controller.start();
    await expect(controller.create(FIRST_WORKSPACE_NAME)).rejects.toThrow(/already exists/);
  });

  it("deleting the open workspace opens another one", async () => {
    await controller.start();
    const first = controller.store.getState().current!.workspace;
    const second = await controller.create("Second");
    await controller.remove(second.id);
    expect(controller.store.getState().current?.workspace.id).toBe(first.id);
    expect(controller.store.getState().workspaces.map((w) => w.id)).toEqual([first.id]);
    expect(await storage.workspaces.get(second.id)).toBeUndefined();
  });

  it("deleting the last workspace starts a fresh one", async () => {
    await controller.start();
    const first = controller.store.getState().current!.workspace;
    await controller.remove(first.id);
    const now = controller.store.getState().current!;
    expect(now.workspace.id).not.toBe(first.id);
    expect(now.workspace.name).toBe(FIRST_WORKSPACE_NAME);
    expect(await now.files.exists("README.md")).toBe(true);
  });

  it("a list refresh overtaken by a newer one does not put its older list back", async () => {
    await controller.start();
    const list = storage.workspaces.list.bind(storage.workspaces);
    let release!: () => void;
    let calls = 0;
    storage.workspaces.list = async () => {
      const result = await list();
      if (++calls === 1) await new Promise<void>((resolve) => (release = resolve));
      return result;
    };
    const first = controller.refresh(); // reads the list with one workspace and is held
    await expect.poll(() => calls).toBe(1);
    await createWorkspace(storage, "Second");
    await controller.refresh();
    expect(controller.store.getState().workspaces.map((w) => w.name).sort()).toEqual([FIRST_WORKSPACE_NAME, "Second"].sort());
    release();
    await first;
    expect(controller.store.getState().workspaces.map((w) => w.name).sort()).toEqual([FIRST_WORKSPACE_NAME, "Second"].sort());
  });

  it("a runtime that finishes starting after a newer switch is disposed, not shown", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = services();
    const start = slow.startRuntime;
    let calls = 0;
    slow.startRuntime = async (files) => {
      if (calls++ === 0) await gate;
      return start(files);
    };
    controller = new WorkspaceController(slow);
    await controller.start();
    await controller.create("Second");
    release();
    await runtimeSettled();
    await new Promise((r) => setTimeout(r, 5));
    const late = runtimes.find((r) => r.workspaceId !== controller.store.getState().current!.workspace.id);
    expect(late?.disposed).toBe(true);
    const state = controller.store.getState().runtime;
    expect(state.status === "ready" && (state.runtime as FakeRuntime).workspaceId).toBe(controller.store.getState().current!.workspace.id);
  });
});

describe("WorkspaceController failures", () => {
  it("leaves the switcher usable when a workspace cannot be opened", async () => {
    await controller.start();
    const other = await createWorkspace(storage, "Broken", { seedReadme: false });
    const broken = services();
    broken.openFiles = async () => {
      throw new Error("cannot read files");
    };
    const failing = new WorkspaceController(broken);
    await expect(failing.switchTo(other.id)).rejects.toThrow(/cannot read files/);
    expect(failing.store.getState().switching).toBe(false);
    await failing.dispose();
  });
});
