// @vitest-environment happy-dom
// The import flow and dialog: into a new workspace (named after the zip, node_modules left out
// unless kept), into the current one (Replace / Skip existing / Cancel), refusals that create
// nothing, Cancel while reading and while writing, `#import=` on load, drops and names.
import "../support/happy-dom-node-name";
import { strToU8, zipSync } from "fflate";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeAddressBar } from "../support/fake-address-bar";
import { act } from "react";
import { WorkspaceFiles, createWorkspace } from "../../src/runtime";
import { openStorage, type Storage, type WorkspaceRecord } from "../../src/storage";
import { unzipInWorker, type FileLike, type ImportResult } from "../../src/transfer";
import type { WorkbenchServices } from "../../src/ui/app";
import { Dialogs, Notifications } from "../../src/ui/common";
import { ImportDialog, ImportFlow, classifyDrop, createTransferUi, fileListSource, nameFromUrl, zipFileSource, type ImportContext, type ImportSource, type Unzip } from "../../src/ui/transfer";
import { buildZip } from "../support/zip-builder";
import { button, click, render, settle } from "./ui-chat-render";

/** The same unzip as the page, in-thread (no Worker here). */
const unzip: Unzip = (bytes, options, onProgress, signal) => unzipInWorker(bytes, options, onProgress, signal, () => undefined);

let counter = 0;
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Harness {
  storage: Storage;
  dbName: string;
  workspace: WorkspaceRecord;
  files: WorkspaceFiles;
  context: ImportContext;
  infos: string[];
  errors: unknown[];
  switchTo: ReturnType<typeof vi.fn>;
}

async function harness(options: { readOnly?: boolean } = {}): Promise<Harness> {
  const dbName = `ui-transfer-import-${counter++}-${Date.now()}`;
  const storage = await openStorage({ name: dbName });
  let workspace = await createWorkspace(storage, "My project", { seedReadme: false });
  let files = await WorkspaceFiles.open(storage, workspace.id);
  files.writeSync("a.txt", "old a");
  files.writeSync("keep.txt", "untouched");
  await files.flush();
  if (options.readOnly) {
    // A shared session's workspace: its files are written before it is marked read-only.
    workspace = { ...workspace, readOnly: true };
    await storage.workspaces.put(workspace);
    await files.close();
    files = await WorkspaceFiles.open(storage, workspace.id);
  }
  const infos: string[] = [];
  const errors: unknown[] = [];
  const switchTo = vi.fn(async () => {});
  cleanups.push(() => {
    files.dispose();
    storage.close();
  });
  const context: ImportContext = {
    storage,
    workspace,
    files,
    workspaces: { refresh: async () => {}, switchTo },
    notifications: { info: (message) => infos.push(message), error: (error) => errors.push(error) },
  };
  return { storage, dbName, workspace, files, context, infos, errors, switchTo };
}

function fileLike(name: string, bytes: Uint8Array): FileLike {
  return { name, size: bytes.length, arrayBuffer: async () => bytes.slice().buffer };
}

function projectZip(): Uint8Array {
  return zipSync({
    "proj-main/a.txt": strToU8("new a"),
    "proj-main/src/b.ts": strToU8("export const b = 1;\n"),
    "proj-main/node_modules/x/index.js": strToU8("module.exports = 1;\n"),
    "proj-main/.git/HEAD": strToU8("ref: refs/heads/main\n"),
  });
}

const names = async (storage: Storage) => (await storage.workspaces.list()).map((w) => w.name).sort();

/** Every file record in the database, whatever its workspace (to prove nothing was left behind). */
function allFileRecords(dbName: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open(dbName);
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const request = open.result.transaction("files").objectStore("files").count();
      request.onsuccess = () => {
        open.result.close();
        resolve(request.result);
      };
    };
  });
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe("ImportFlow: into a new workspace", () => {
  it("names the workspace after the zip, leaves out node_modules and .git, switches to it and says so", async () => {
    const h = await harness();
    const flow = new ImportFlow();
    expect(flow.open(zipFileSource(fileLike("proj-main.zip", projectZip()), unzip), h.context)).toBe(true);
    // The zip is checked first (reading its directory), then the options are asked.
    expect(flow.state).toMatchObject({ step: "running", phase: "check", cancellable: true });
    await flow.whenOpened();
    expect(flow.state).toMatchObject({ step: "options", target: "new", name: "proj-main", keepNodeModules: false, currentName: "My project" });
    await flow.start();
    expect(flow.state.step).toBe("closed");
    const created = (await h.storage.workspaces.list()).find((w) => w.name === "proj-main")!;
    expect(created.readOnly).toBeUndefined();
    const stored = (await h.storage.files.list(created.id)).filter((f) => f.kind === "file").map((f) => [f.path, f.data]);
    expect(stored).toEqual([
      ["a.txt", "new a"],
      ["src/b.ts", "export const b = 1;\n"],
    ]);
    expect(h.switchTo).toHaveBeenCalledWith(created.id);
    expect(h.infos).toEqual(['Imported 2 files (25 B) into the new workspace "proj-main". Left out 1 entry in node_modules and 1 entry in .git.']);
    // The open workspace was not touched.
    expect(h.files.readSync("a.txt")).toBe("old a");
  });

  it("keeps node_modules when asked, and picks a free name when the name is taken", async () => {
    const h = await harness();
    await createWorkspace(h.storage, "proj-main", { seedReadme: false });
    const flow = new ImportFlow();
    flow.open(zipFileSource(fileLike("proj-main.zip", projectZip()), unzip), h.context);
    await flow.whenOpened();
    flow.setOptions({ keepNodeModules: true });
    await flow.start();
    const created = (await h.storage.workspaces.list()).find((w) => w.name === "proj-main 2")!;
    expect((await h.storage.files.list(created.id)).map((f) => f.path)).toContain("node_modules/x/index.js");
    expect(h.infos[0]).toMatch(/^Imported 3 files .* "proj-main 2"\. Left out 1 entry in \.git\.$/);
  });

  it("keeps .git when asked: the repository's files are imported with the rest", async () => {
    const h = await harness();
    const flow = new ImportFlow();
    flow.open(zipFileSource(fileLike("proj-main.zip", projectZip()), unzip), h.context);
    await flow.whenOpened();
    expect(flow.state).toMatchObject({ keepGit: false });
    flow.setOptions({ keepGit: true });
    await flow.start();
    const created = (await h.storage.workspaces.list()).find((w) => w.name === "proj-main")!;
    const paths = (await h.storage.files.list(created.id)).map((f) => f.path);
    expect(paths.some((p) => p.startsWith(".git/"))).toBe(true);
    expect(paths).not.toContain("node_modules/x/index.js");
    expect(h.infos[0]).toMatch(/Left out 1 entry in node_modules\.$/);
  });

  it("refuses an empty name without starting", async () => {
    const h = await harness();
    const flow = new ImportFlow();
    flow.open(zipFileSource(fileLike("proj-main.zip", projectZip()), unzip), h.context);
    await flow.whenOpened();
    flow.setOptions({ name: "   " });
    await flow.start();
    expect(flow.state).toMatchObject({ step: "options", nameError: "A workspace name cannot be empty." });
    expect(await names(h.storage)).toEqual(["My project"]);
  });

  it.each([
    ["zip-slip", buildZip([{ name: "p/ok.txt", data: "ok" }, { name: "p/../../evil.sh", data: "x" }]), /zip-slip/],
    ["symlink", buildZip([{ name: "p/a.txt", data: "a" }, { name: "p/l", data: "/etc/passwd", method: 0, unixMode: 0o120777 }]), /symbolic link/],
    ["not a zip", strToU8("just text, not a zip at all"), /not a zip/i],
  ])("shows why a %s is refused straight away, before the options, and creates nothing", async (_label, zip, message) => {
    const h = await harness();
    const flow = new ImportFlow();
    const steps: string[] = [];
    flow.store.subscribe((state) => steps.push(state.step));
    flow.open(zipFileSource(fileLike("bad.zip", zip), unzip), h.context);
    await flow.whenOpened();
    expect(steps).not.toContain("options");
    expect(flow.state.step).toBe("error");
    expect((flow.state as { message: string }).message).toMatch(message);
    expect(await names(h.storage)).toEqual(["My project"]);
    expect(await allFileRecords(h.dbName)).toBe(2);
    expect(h.switchTo).not.toHaveBeenCalled();
    flow.close();
    expect(flow.state.step).toBe("closed");
  });

  it("imports a folder holding a name webcode cannot store, skipping that file and saying which", async () => {
    const h = await harness();
    const flow = new ImportFlow();
    const picked = [fileLike("a.txt", strToU8("a")), fileLike("we:ird.txt", strToU8("w")), fileLike(".DS_Store", strToU8("junk"))].map((f) => ({ ...f, webkitRelativePath: `myfolder/${f.name}` }));
    flow.open(fileListSource(picked), h.context);
    await flow.whenOpened();
    expect(flow.state.step).toBe("options");
    await flow.start();
    expect(flow.state.step).toBe("closed");
    const created = (await h.storage.workspaces.list()).find((w) => w.name === "myfolder")!;
    expect((await h.storage.files.list(created.id)).map((f) => f.path)).toEqual(["a.txt"]);
    expect(h.infos).toEqual([
      'Imported 1 file (1 B) into the new workspace "myfolder". Left out 1 macOS metadata entry (__MACOSX, .DS_Store). Skipped 1 file with a name webcode cannot store: we:ird.txt.',
    ]);
  });

  it("Cancel while reading stops the read and creates nothing", async () => {
    const h = await harness();
    const flow = new ImportFlow();
    let sawSignal: AbortSignal | undefined;
    const slow: ImportSource = {
      label: "slow.zip",
      name: "slow",
      kind: "zip",
      read: (_options, onProgress, signal) =>
        new Promise<ImportResult>((_resolve, reject) => {
          sawSignal = signal;
          onProgress("read", { files: 3, totalFiles: 10, bytes: 300, totalBytes: 1000 });
          signal.addEventListener("abort", () => reject(new DOMException("cancelled", "AbortError")));
        }),
    };
    flow.open(slow, h.context);
    const done = flow.start();
    await until(() => flow.state.step === "running", "running");
    expect(flow.state).toMatchObject({ step: "running", phase: "read", cancellable: true, progress: { files: 3, totalFiles: 10 } });
    flow.cancel();
    await done;
    expect(sawSignal?.aborted).toBe(true);
    expect(flow.state.step).toBe("closed");
    expect(h.infos).toEqual(["Import cancelled. Nothing was imported."]);
    expect(await names(h.storage)).toEqual(["My project"]);
  });

  it("Cancel while writing a new workspace removes everything written so far", async () => {
    const h = await harness();
    const flow = new ImportFlow();
    const entries = Array.from({ length: 1600 }, (_, i) => ({ kind: "file" as const, path: `f${i}.txt`, data: `file ${i}` }));
    const many: ImportSource = { label: "many.zip", name: "many", kind: "zip", read: async () => ({ entries, skipped: { nodeModules: 0, git: 0 }, bytes: 10_000 }) };
    flow.open(many, h.context);
    const unsubscribe = flow.store.subscribe((state) => {
      if (state.step === "running" && state.phase === "write" && state.progress.files >= 500) flow.cancel();
    });
    await flow.start();
    unsubscribe();
    expect(flow.state.step).toBe("closed");
    expect(h.infos).toEqual(["Import cancelled. Nothing was imported."]);
    expect(await names(h.storage)).toEqual(["My project"]);
    expect(await allFileRecords(h.dbName)).toBe(2);
  });

  it("a second import waits for the running one", async () => {
    const h = await harness();
    const flow = new ImportFlow();
    const never: ImportSource = { label: "x.zip", name: "x", kind: "zip", read: () => new Promise(() => {}) };
    flow.open(never, h.context);
    void flow.start();
    await until(() => flow.state.step === "running", "running");
    expect(flow.open(zipFileSource(fileLike("y.zip", projectZip()), unzip), h.context)).toBe(false);
    expect(h.infos).toEqual(["An import is already running. Wait for it to finish or cancel it first."]);
  });
});

describe("ImportFlow: into the current workspace", () => {
  async function importInto(choice: "replace" | "skip" | "cancel") {
    const h = await harness();
    const flow = new ImportFlow();
    flow.open(zipFileSource(fileLike("proj-main.zip", projectZip()), unzip), h.context);
    await flow.whenOpened();
    flow.setOptions({ target: "current" });
    const done = flow.start();
    await until(() => flow.state.step === "conflicts", "the conflict question");
    expect(flow.state).toMatchObject({ step: "conflicts", conflicts: ["a.txt"] });
    flow.resolveConflicts(choice);
    await done;
    expect(flow.state.step).toBe("closed");
    expect(await names(h.storage)).toEqual(["My project"]);
    expect(h.files.readSync("keep.txt")).toBe("untouched");
    return h;
  }

  it("Replace overwrites the conflicting files and writes the rest", async () => {
    const h = await importInto("replace");
    expect(h.files.readSync("a.txt")).toBe("new a");
    expect(h.files.readSync("src/b.ts")).toBe("export const b = 1;\n");
    expect(h.infos).toEqual(['Imported 2 files into "My project". Replaced 1 existing file. Left out 1 entry in node_modules and 1 entry in .git.']);
    // Written through the file service, so it is persisted too.
    await h.files.flush();
    expect((await h.storage.files.get(h.workspace.id, "a.txt"))?.data).toBe("new a");
  });

  it("Skip existing keeps the conflicting files and writes the rest", async () => {
    const h = await importInto("skip");
    expect(h.files.readSync("a.txt")).toBe("old a");
    expect(h.files.readSync("src/b.ts")).toBe("export const b = 1;\n");
    expect(h.infos[0]).toMatch(/^Imported 1 file into "My project"\. Kept 1 existing file as they were\./);
  });

  it("Cancel writes nothing", async () => {
    const h = await importInto("cancel");
    expect(h.files.readSync("a.txt")).toBe("old a");
    expect(h.files.statSync("src/b.ts")).toBeUndefined();
    expect(h.infos).toEqual(["Import cancelled. Nothing was imported."]);
  });

  it("a read-only (shared) workspace only takes imports into a new workspace", async () => {
    const h = await harness({ readOnly: true });
    const flow = new ImportFlow();
    flow.open(zipFileSource(fileLike("proj-main.zip", projectZip()), unzip), h.context);
    await flow.whenOpened();
    flow.setOptions({ target: "current" });
    expect(flow.state).toMatchObject({ step: "options", target: "new", currentReadOnly: true });
  });
});

describe("ImportDialog", () => {
  it("labels every control, shows progress with files and bytes, the conflicts, and errors", async () => {
    const h = await harness();
    const flow = new ImportFlow();
    let release!: () => void;
    const gated: ImportSource = {
      label: "proj-main.zip",
      name: "proj-main",
      kind: "zip",
      read: async (options, onProgress, signal) => {
        onProgress("read", { files: 2, totalFiles: 4, bytes: 1536, totalBytes: 4096 });
        await new Promise<void>((resolve) => (release = resolve));
        return unzip(projectZip(), options, () => {}, signal);
      },
    };
    flow.open(gated, h.context);
    const view = await render(<ImportDialog flow={flow} />);
    cleanups.push(() => view.unmount());
    const dialog = view.container.querySelector('[role="dialog"]')!;
    expect(dialog.getAttribute("aria-label")).toBe("Import");
    const radios = Array.from(dialog.querySelectorAll<HTMLInputElement>('input[type="radio"]'));
    expect(radios.map((r) => r.closest("label")!.textContent)).toEqual(["A new workspace", "The current workspace (My project)"]);
    expect(radios[0]!.checked).toBe(true);
    const nameInput = dialog.querySelector<HTMLInputElement>("input.text-input")!;
    expect(dialog.querySelector(`label[for="${nameInput.id}"]`)?.textContent).toBe("Workspace name");
    expect(nameInput.value).toBe("proj-main");
    const checkboxes = [...dialog.querySelectorAll<HTMLInputElement>('input[type="checkbox"]')].map((box) => box.closest("label")!.textContent);
    expect(checkboxes).toEqual(["Keep node_modules", "Keep .git (the repository's history, for git in the terminal)"]);

    await click(radios[1]);
    await click(button(dialog, "Import"));
    const bar = view.container.querySelector('[role="progressbar"]')!;
    expect(bar.getAttribute("aria-label")).toBe("Import progress");
    expect(bar.getAttribute("aria-valuenow")).toBe("38");
    expect(view.container.textContent).toContain("Reading 2 of 4 files · 1.5 KB of 4.0 KB");
    expect(button(view.container, "Cancel")!.disabled).toBe(false);

    release();
    for (let i = 0; i < 50 && flow.state.step !== "conflicts"; i++) await settle();
    const list = view.container.querySelector('[aria-label="Files that would be replaced"]')!;
    expect(Array.from(list.querySelectorAll("li")).map((li) => li.textContent)).toEqual(["a.txt"]);
    expect(view.container.querySelector('[role="dialog"]')!.getAttribute("aria-label")).toBe("Replace existing files?");
    expect(["Cancel", "Skip existing", "Replace"].map((name) => button(view.container, name) !== undefined)).toEqual([true, true, true]);
    await click(button(view.container, "Skip existing"));
    for (let i = 0; i < 50 && flow.state.step !== "closed"; i++) await settle();
    expect(view.container.querySelector('[role="dialog"]')).toBeNull();

    // A hostile zip is refused straight away: no options first.
    await act(async () => {
      flow.open(zipFileSource(fileLike("slip.zip", buildZip([{ name: "../x", data: "x" }])), unzip), h.context);
      await flow.whenOpened();
    });
    const failed = view.container.querySelector('[role="dialog"]')!;
    expect(failed.getAttribute("aria-label")).toBe("Import failed");
    expect(failed.querySelector('[role="alert"]')!.textContent).toMatch(/zip-slip/);
    await click(button(failed, "Close"));
    expect(view.container.querySelector('[role="dialog"]')).toBeNull();
  });

  it("spells out text-direction characters in names and isolates each quoted name (the message is not mirrored)", async () => {
    const h = await harness();
    const flow = new ImportFlow();
    const view = await render(<ImportDialog flow={flow} />);
    cleanups.push(() => view.unmount());
    const invisible = /[\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/;
    await act(async () => {
      flow.open(zipFileSource(fileLike("evil\u202Epiz.zip", buildZip([{ name: "p/ok.txt", data: "ok" }, { name: "p/evil\u202Etxt.exe", data: "x" }])), unzip), h.context);
      await flow.whenOpened();
    });
    const alert = view.container.querySelector('[role="dialog"] [role="alert"]')!;
    expect(alert.textContent).not.toMatch(invisible);
    expect(Array.from(alert.querySelectorAll("bdi")).map((b) => b.textContent)).toEqual(['"p/evil⟨U+202E⟩txt.exe"']);
    expect(alert.textContent).toMatch(/^The entry "p\/evil⟨U\+202E⟩txt\.exe" has a name that contains an invisible or text-direction character, which can disguise a name, so the import was refused\./);

    // The picked file's own name, shown in the options, is spelled out and isolated as well.
    await act(async () => {
      flow.close();
      flow.open(zipFileSource(fileLike("proj\u202Epiz.zip", projectZip()), unzip), h.context);
      await flow.whenOpened();
    });
    const source = view.container.querySelector(".transfer-source-name bdi")!;
    expect(source.textContent).toBe("proj⟨U+202E⟩piz.zip");
    expect(view.container.textContent).not.toMatch(invisible);
  });
});

describe("createTransferUi", () => {
  it("handles #import=<url> once on load: removes it from the address, asks where to import, downloads and imports", async () => {
    const h = await harness();
    const zip = projectZip();
    const fetched: string[] = [];
    const fetch = vi.fn(async (url: string | URL | Request) => {
      fetched.push(String(url));
      return new Response(zip.slice(), { status: 200, headers: { "content-length": String(zip.length) } });
    }) as unknown as typeof globalThis.fetch;
    const replaced: string[] = [];
    const address = { href: () => "https://webcode.test/app?x=1#import=https%3A%2F%2Fgithub.com%2Fpmndrs%2Fzustand%2Farchive%2Frefs%2Fheads%2Fmain.zip", replace: (url: string) => replaced.push(url) };
    const ui = createTransferUi({ address, fetch, unzip });
    const notifications = new Notifications((() => 0) as unknown as typeof setTimeout);
    const services = {
      storage: h.storage,
      notifications,
      dialogs: new Dialogs(),
      workspaces: h.context.workspaces,
      workspace: h.workspace,
      files: h.files,
      documents: { tabs: [], saveAll: async () => true },
      runtime: { status: "starting" },
      showPanel: () => {},
      layout: {},
    } as unknown as WorkbenchServices;
    const view = await render(<>{ui.topBar[0]!.render(services)}</>);
    cleanups.push(() => view.unmount());
    expect(replaced).toEqual(["https://webcode.test/app?x=1"]);
    // Nothing is requested before the user agrees to download from the named host.
    expect(ui.flow.state).toMatchObject({ step: "confirm", host: "github.com", url: "https://github.com/pmndrs/zustand/archive/refs/heads/main.zip" });
    expect(ui.flow.state).not.toHaveProperty("warning");
    expect(fetched).toEqual([]);
    await click(button(view.container, "Download"));
    for (let i = 0; i < 100 && ui.flow.state.step !== "options"; i++) await settle();
    expect(ui.flow.state).toMatchObject({ step: "options", name: "zustand", source: { kind: "link" } });
    expect(["Import zip", "Import folder", "Export zip"].every((name) => button(view.container, name))).toBe(true);
    expect(view.container.querySelector('input[type="file"][aria-label="Zip file to import"]')).not.toBeNull();
    expect(view.container.querySelector('input[type="file"][aria-label="Folder to import"]')?.hasAttribute("webkitdirectory")).toBe(true);
    // Rendering again (a workspace switch remounts the top bar) does not ask twice.
    await view.rerender(<>{ui.topBar[0]!.render({ ...services })}</>);
    expect(replaced).toHaveLength(1);

    await click(button(view.container, "Import"));
    for (let i = 0; i < 100 && ui.flow.state.step !== "closed"; i++) await settle();
    expect(fetched).toEqual(["https://github.com/pmndrs/zustand/archive/refs/heads/main.zip"]);
    const created = (await h.storage.workspaces.list()).find((w) => w.name === "zustand")!;
    expect(h.switchTo).toHaveBeenCalledWith(created.id);
    expect(notifications.store.getState().items.map((i) => i.message)).toEqual([expect.stringMatching(/^Imported 2 files .* "zustand"/)]);
  });

  it("handles #import= pasted into an open tab (hashchange, no reload) like a fresh load", async () => {
    const h = await harness();
    const bar = fakeAddressBar("https://webcode.test/");
    const { address, replaced } = bar;
    const ui = createTransferUi({ address, unzip, fetch: (async () => new Response(projectZip().slice())) as unknown as typeof fetch });
    const services = { storage: h.storage, workspace: h.workspace, files: h.files, workspaces: h.context.workspaces, notifications: new Notifications(), dialogs: new Dialogs(), documents: { tabs: [] } } as unknown as WorkbenchServices;
    const view = await render(<>{ui.topBar[0]!.render(services)}</>);
    cleanups.push(() => view.unmount());
    expect(ui.flow.state.step).toBe("closed");
    expect(bar.listenerCount()).toBe(1);
    await act(async () => bar.paste("https://webcode.test/#import=https%3A%2F%2Fx.test%2Fdemo.zip"));
    expect(replaced).toEqual(["https://webcode.test/"]);
    await until(() => ui.flow.state.step === "confirm", "the download question");
    await act(async () => ui.flow.confirmDownload());
    await until(() => ui.flow.state.step === "options", "the import options");
    expect(ui.flow.state).toMatchObject({ step: "options", name: "demo", source: { kind: "link" } });
  });

  it.each([
    ["javascript:alert(1)", "javascript%3Aalert(1)", /Only http and https links can be imported, not "javascript:"/, false],
    ["not a URL", "not%20a%20link", /"not a link" is not a valid link/, false],
    ["an unreachable URL", "https%3A%2F%2Funreachable.test%2Fa.zip", /could not be downloaded/, true],
    ["a link to a hostile zip", "https%3A%2F%2Fx.test%2Fslip.zip", /zip-slip/, true],
  ])("#import= with %s shows the error straight away, without the options", async (_label, encoded, message, fetches) => {
    const h = await harness();
    const fetched: string[] = [];
    const fetch = vi.fn(async (url: string) => {
      fetched.push(url);
      if (url.includes("unreachable")) throw new TypeError("Failed to fetch");
      return new Response(buildZip([{ name: "p/ok.txt", data: "ok" }, { name: "p/../../x", data: "x" }]).slice());
    }) as unknown as typeof globalThis.fetch;
    const ui = createTransferUi({ address: { href: () => `https://webcode.test/#import=${encoded}`, replace: () => {} }, fetch, unzip });
    const steps: string[] = [];
    ui.flow.store.subscribe((state) => steps.push(state.step));
    const services = { storage: h.storage, workspace: h.workspace, files: h.files, workspaces: h.context.workspaces, notifications: new Notifications(), dialogs: new Dialogs(), documents: { tabs: [] } } as unknown as WorkbenchServices;
    const view = await render(<>{ui.topBar[0]!.render(services)}</>);
    cleanups.push(() => view.unmount());
    // A link that can be downloaded is asked about first; one that cannot fails without a question.
    expect(ui.flow.state.step).toBe(fetches ? "confirm" : "error");
    expect(fetched).toEqual([]);
    if (fetches) await act(async () => ui.flow.confirmDownload());
    await act(async () => ui.flow.whenOpened());
    expect(steps).not.toContain("options");
    expect(ui.flow.state.step).toBe("error");
    expect(view.container.querySelector('[role="dialog"]')!.getAttribute("aria-label")).toBe("Import failed");
    expect(view.container.querySelector('[role="alert"]')!.textContent).toMatch(message);
    expect(fetched.length > 0).toBe(fetches);
    expect(await names(h.storage)).toEqual(["My project"]);
  });

  it("does nothing on load without #import=", async () => {
    const h = await harness();
    const replaced: string[] = [];
    const ui = createTransferUi({ address: { href: () => "https://webcode.test/#other=1", replace: (url) => replaced.push(url) }, unzip });
    const services = { storage: h.storage, workspace: h.workspace, files: h.files, workspaces: h.context.workspaces, notifications: new Notifications(), dialogs: new Dialogs(), documents: { tabs: [] } } as unknown as WorkbenchServices;
    const view = await render(<>{ui.topBar[0]!.render(services)}</>);
    cleanups.push(() => view.unmount());
    expect(replaced).toEqual([]);
    expect(ui.flow.state.step).toBe("closed");
  });
});

describe("drops and names", () => {
  const file = (name: string) => new File(["x"], name);
  const entry = (name: string, isFile: boolean) => ({ name, isFile, isDirectory: !isFile });
  const item = (f: File, e: unknown) => ({ kind: "file", getAsFile: () => f, webkitGetAsEntry: () => e });

  it("sorts a drop into a zip, a .webcode file, folder entries or plain files", () => {
    const zip = file("proj.ZIP");
    expect(classifyDrop({ files: [zip], items: [item(zip, entry("proj.ZIP", true))] })).toEqual({ kind: "zip", file: zip });
    const share = file("session.webcode");
    expect(classifyDrop({ files: [share], items: [item(share, entry("session.webcode", true))] })).toEqual({ kind: "share-file", file: share });
    const folder = entry("project", false);
    const folderFile = file("project");
    expect(classifyDrop({ files: [folderFile], items: [item(folderFile, folder)] })).toEqual({ kind: "entries", entries: [folder] });
    // A synthetic drop has no entries: a zip is still a zip, other files are imported as files.
    expect(classifyDrop({ files: [zip], items: [{ kind: "file", getAsFile: () => zip }] })).toEqual({ kind: "zip", file: zip });
    const a = file("a.txt");
    const b = file("b.txt");
    expect(classifyDrop({ files: [a, b], items: [{ kind: "file", getAsFile: () => a }, { kind: "file", getAsFile: () => b }] })).toEqual({ kind: "files", files: [a, b] });
    expect(classifyDrop({ files: [], items: [{ kind: "string", getAsFile: () => null }] })).toBeUndefined();
  });

  it("names a workspace after a zip URL (the repository for GitHub archives)", () => {
    expect(nameFromUrl("https://github.com/pmndrs/zustand/archive/refs/heads/main.zip")).toBe("zustand");
    expect(nameFromUrl("https://codeload.github.com/pmndrs/zustand/zip/refs/heads/main")).toBe("zustand");
    expect(nameFromUrl("https://example.com/downloads/my%20project.zip")).toBe("my project");
    expect(nameFromUrl("not a url")).toBe("Imported");
  });
});
