// @vitest-environment happy-dom
// The export dialog: the whole workspace or a folder as a zip named after the workspace, unsaved
// editor changes saved first, and safe download names.
import "../support/happy-dom-node-name";
import { strFromU8, unzipSync } from "fflate";
import { act } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { WorkspaceFiles, createWorkspace } from "../../src/runtime";
import { openStorage } from "../../src/storage";
import { ExportDialog, exportFileName, safeFileName } from "../../src/ui/transfer";
import { button, click, render, settle } from "./ui-chat-render";

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

let counter = 0;
async function workspaceFiles() {
  const storage = await openStorage({ name: `ui-transfer-export-${counter++}-${Date.now()}` });
  const workspace = await createWorkspace(storage, "My project", { seedReadme: false });
  const files = await WorkspaceFiles.open(storage, workspace.id);
  files.writeSync("README.md", "# My project\n");
  files.writeSync("src/main.ts", "console.log('hi');\n");
  files.writeSync("src/assets/logo.bin", new Uint8Array([0, 1, 2, 255]));
  files.mkdirSync("empty");
  cleanups.push(() => {
    files.dispose();
    storage.close();
  });
  return files;
}

async function openDialog(props: { unsaved?: number; saveAll?: () => Promise<boolean> } = {}) {
  const files = await workspaceFiles();
  const saved: Array<{ name: string; bytes: Uint8Array }> = [];
  const onClose = vi.fn();
  const onExported = vi.fn();
  const saveAll = vi.fn(props.saveAll ?? (async () => true));
  const view = await render(
    <ExportDialog
      workspaceName="My project"
      files={files}
      unsavedCount={() => props.unsaved ?? 0}
      saveAll={saveAll}
      onClose={onClose}
      onExported={onExported}
      save={(bytes, name) => saved.push({ name, bytes })}
    />,
  );
  cleanups.push(() => view.unmount());
  await settle();
  return { view, saved, onClose, onExported, saveAll };
}

async function waitFor(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !condition(); i++) await settle();
}

describe("ExportDialog", () => {
  it("exports the whole workspace as <workspace>.zip with every file byte for byte", async () => {
    const { view, saved, onClose, onExported } = await openDialog();
    const dialog = view.container.querySelector('[role="dialog"]')!;
    expect(dialog.getAttribute("aria-label")).toBe("Export zip");
    const select = dialog.querySelector("select")!;
    expect(dialog.querySelector(`label[for="${select.id}"]`)?.textContent).toBe("What to export");
    expect(Array.from(select.options).map((o) => o.textContent)).toEqual(["Whole workspace", "Folder: empty", "Folder: src", "Folder: src/assets"]);
    await click(button(dialog, "Download zip"));
    await waitFor(() => saved.length > 0);
    expect(saved.map((s) => s.name)).toEqual(["My project.zip"]);
    const entries = unzipSync(saved[0]!.bytes);
    expect(Object.keys(entries).sort()).toEqual(["My project/", "My project/README.md", "My project/empty/", "My project/src/", "My project/src/assets/", "My project/src/assets/logo.bin", "My project/src/main.ts"]);
    expect(strFromU8(entries["My project/src/main.ts"]!)).toBe("console.log('hi');\n");
    expect([...entries["My project/src/assets/logo.bin"]!]).toEqual([0, 1, 2, 255]);
    expect(onExported).toHaveBeenCalledWith(expect.stringMatching(/^Exported "My project" as My project\.zip \(\d+(\.\d)? (B|KB)\)\.$/));
    expect(onClose).toHaveBeenCalled();
  });

  it("exports one folder as <workspace>-<folder>.zip holding only that folder", async () => {
    const { view, saved } = await openDialog();
    const select = view.container.querySelector("select")!;
    await act(async () => {
      select.value = "src";
      select.dispatchEvent(new Event("change", { bubbles: true }));
    });
    expect(view.container.textContent).toContain("My project-src.zip");
    await click(button(view.container, "Download zip"));
    await waitFor(() => saved.length > 0);
    expect(saved[0]!.name).toBe("My project-src.zip");
    expect(Object.keys(unzipSync(saved[0]!.bytes)).sort()).toEqual(["src/", "src/assets/", "src/assets/logo.bin", "src/main.ts"]);
  });

  it("saves unsaved editor changes first, and stops with a message when they cannot be saved", async () => {
    const ok = await openDialog({ unsaved: 2 });
    expect(ok.view.container.textContent).toContain("2 files have unsaved changes in the editor; they are saved before the export.");
    await click(button(ok.view.container, "Download zip"));
    await waitFor(() => ok.saved.length > 0);
    expect(ok.saveAll).toHaveBeenCalledTimes(1);
    expect(ok.saved).toHaveLength(1);

    const failing = await openDialog({ unsaved: 1, saveAll: async () => false });
    await click(button(failing.view.container, "Download zip"));
    await waitFor(() => failing.view.container.querySelector('[role="alert"]') !== null);
    expect(failing.view.container.querySelector('[role="alert"]')!.textContent).toMatch(/^The export failed: some unsaved files could not be saved/);
    expect(failing.saved).toEqual([]);
    expect(failing.onClose).not.toHaveBeenCalled();
  });
});

describe("download names", () => {
  it("replaces characters file systems refuse and never returns an empty name", () => {
    expect(safeFileName("My project", ".zip")).toBe("My project.zip");
    expect(safeFileName('a/b\\c:d*e?f"g<h>i|j', ".zip")).toBe("a-b-c-d-e-f-g-h-i-j.zip");
    expect(safeFileName("...", ".zip")).toBe("workspace.zip");
    expect(safeFileName("Shared: <img src=x>", ".webcode", "session")).toBe("Shared- -img src=x-.webcode");
    expect(exportFileName("Demo", "src/lib")).toBe("Demo-lib.zip");
  });
});
