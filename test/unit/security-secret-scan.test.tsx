// @vitest-environment happy-dom
// Issue 9, point 5: the secret scan looks inside binary files and at file and folder names, and the
// export zip warns like the share dialog, with the same opt-out (found files left out by default).
import "../support/happy-dom-node-name";
import { unzipSync } from "fflate";
import { afterEach, describe, expect, it } from "vitest";
import { WorkspaceFiles, createWorkspace } from "../../src/runtime";
import { openStorage, type FileRecord } from "../../src/storage";
import { scanFilesForSecrets, scanForSecrets } from "../../src/transfer";
import { ExportDialog } from "../../src/ui/transfer";
import { button, click, render, settle } from "./ui-chat-render";

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

// Built from pieces so that no scanner flags this test file itself.
const ANTHROPIC = "sk-" + "ant-api03-" + "Q".repeat(40);
const GITHUB = "gh" + "p_" + "a1B2".repeat(10);
const CONFIGURED = "Mq7" + "Vt2xP9kLw4Zr8Nb3Yc6Hd1Jf5Gs0Ua";

/** A binary file (NULs, high bytes) with a key in the middle, as a compiled bundle or database would hold it. */
function binaryWith(secret: string): Uint8Array {
  const key = new TextEncoder().encode(secret);
  const bytes = new Uint8Array(300 + key.length);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 37) % 256 === 0 ? 0 : (i * 151) % 256;
  bytes.set([0, 0, 255], 97);
  bytes.set(key, 100);
  bytes[100 + key.length] = 0;
  return bytes;
}

describe("the secret scan", () => {
  it("finds keys inside binary files", () => {
    const findings = scanFilesForSecrets([{ path: "data/app.sqlite", kind: "file", data: binaryWith(ANTHROPIC) }, { path: "img/logo.png", kind: "file", data: binaryWith(CONFIGURED) }], { knownSecrets: [CONFIGURED] });
    expect(findings.map((f) => [f.path, f.kind])).toEqual([
      ["data/app.sqlite", "anthropic-key"],
      ["img/logo.png", "configured-key"],
    ]);
    expect(JSON.stringify(findings)).not.toContain(ANTHROPIC);
  });

  it("finds keys in file and folder names, a folder once however many files it holds", () => {
    const files: FileRecord[] = [
      { v: 1, workspaceId: "ws", path: `tokens/${GITHUB}.txt`, kind: "file", data: "x", mtime: 1 },
      { v: 1, workspaceId: "ws", path: `keys-${ANTHROPIC}`, kind: "dir", mtime: 1 },
      { v: 1, workspaceId: "ws", path: `keys-${ANTHROPIC}/a.txt`, kind: "file", data: "a", mtime: 1 },
      { v: 1, workspaceId: "ws", path: `keys-${ANTHROPIC}/b.txt`, kind: "file", data: "b", mtime: 1 },
    ];
    const session = { v: 1, id: "s", workspaceId: "ws", title: "t", createdAt: 1, updatedAt: 1, agent: "build", permission: [], tokens: { input: 0, output: 0, reasoning: 0, cacheRead: 0, cacheWrite: 0 }, cost: 0, todos: [] };
    const findings = scanForSecrets({ session, messages: [], parts: [], files });
    expect(findings.map((f) => [f.path, f.kind, f.inName])).toEqual([
      [`tokens/${GITHUB}.txt`, "github-token", true],
      [`keys-${ANTHROPIC}`, "anthropic-key", true],
    ]);
  });
});

async function exportDialog(knownSecrets: string[] = [CONFIGURED]) {
  const storage = await openStorage({ name: `secret-export-${Math.random()}` });
  const workspace = await createWorkspace(storage, "Demo", { seedReadme: false });
  const files = await WorkspaceFiles.open(storage, workspace.id);
  files.writeSync("README.md", "# Demo\n");
  files.writeSync("src/client.ts", `export const key = "${CONFIGURED}";\n`);
  files.writeSync("build/app.bin", binaryWith(ANTHROPIC));
  files.writeSync(`creds-${GITHUB}/note.txt`, "nothing secret inside\n");
  files.writeSync(".env", "TOKEN=1\n");
  await files.flush();
  cleanups.push(() => {
    files.dispose();
    storage.close();
  });
  const saved: Uint8Array[] = [];
  const exported: string[] = [];
  const view = await render(
    <ExportDialog
      workspaceName="Demo"
      files={files}
      unsavedCount={() => 0}
      saveAll={async () => true}
      onClose={() => {}}
      onExported={(m) => exported.push(m)}
      save={(bytes) => saved.push(bytes)}
      knownSecrets={async () => knownSecrets}
    />,
  );
  cleanups.push(() => view.unmount());
  for (let i = 0; i < 100 && !view.container.querySelector(".share-finding"); i++) await settle();
  return { view, saved, exported };
}

const zipPaths = (bytes: Uint8Array) => Object.keys(unzipSync(bytes)).filter((p) => !p.endsWith("/")).sort();

describe("the export dialog", () => {
  it("lists possible secrets like the share dialog and leaves those files out by default", async () => {
    const { view, saved, exported } = await exportDialog();
    const dialog = view.container.querySelector('[role="dialog"]')!;
    expect(dialog.querySelector("legend")?.textContent).toBe("Possible secrets found");
    const lines = Array.from(dialog.querySelectorAll(".share-finding")).map((l) => l.textContent);
    expect(lines).toEqual([
      expect.stringMatching(/^Leave out \.env: an environment file \(\.env\)$/),
      expect.stringMatching(/^Leave out build\/app\.bin: Anthropic API key sk-ant… \(\d+ characters\)$/),
      expect.stringMatching(/^Leave out creds-ghp_.*: GitHub token ghp_a1… \(\d+ characters\) in its name$/),
      expect.stringMatching(/^Leave out src\/client\.ts: API key from your Settings Mq7Vt2… \(33 characters\)$/),
    ]);
    expect(dialog.textContent).not.toContain(CONFIGURED);
    expect(Array.from(dialog.querySelectorAll<HTMLInputElement>(".share-finding input")).every((c) => c.checked)).toBe(true);
    await click(button(dialog, "Download zip"));
    for (let i = 0; i < 100 && saved.length === 0; i++) await settle();
    expect(zipPaths(saved[0]!)).toEqual(["Demo/README.md"]);
    expect(exported[0]).toContain("4 files or folders with possible secrets were left out.");
  });

  it("includes a file the user unticks (the same opt-out as sharing)", async () => {
    const { view, saved } = await exportDialog();
    const dialog = view.container.querySelector('[role="dialog"]')!;
    const clientBox = Array.from(dialog.querySelectorAll(".share-finding")).find((l) => l.textContent!.includes("src/client.ts"))!.querySelector("input")!;
    await click(clientBox);
    expect(clientBox.checked).toBe(false);
    await click(button(dialog, "Download zip"));
    for (let i = 0; i < 100 && saved.length === 0; i++) await settle();
    expect(zipPaths(saved[0]!)).toEqual(["Demo/README.md", "Demo/src/client.ts"]);
  });
});
