// @vitest-environment happy-dom
// The Changes view: files from patch parts, before/after from snapshots and the workspace, per-file revert.
import "../support/happy-dom-node-name";
import { afterEach, describe, expect, it } from "vitest";
import { openStorage, type Storage } from "../../src/storage";
import type { WorkspaceFs } from "../../src/runtime";
import { ChangesView } from "../../src/ui/chat/changes-view";
import type { MessageEntry } from "../../src/ui/chat/chat-store";
import { SnapshotChangesSource, changedFiles, coarseLineDiff } from "../../src/ui/chat/session-changes";
import { assistantMessage, part, userMessage } from "./ui-chat-fixtures";
import { button, click, render, settleUntil, type Rendered } from "./ui-chat-render";

let view: Rendered | undefined;
let storage: Storage | undefined;
afterEach(async () => {
  await view?.unmount();
  storage?.close();
  view = undefined;
});

function memoryFs(files: Map<string, string>): WorkspaceFs {
  return {
    exists: async (path: string) => files.has(path),
    readFile: async (path: string) => new TextEncoder().encode(files.get(path)),
    writeFile: async (path: string, data: string | Uint8Array) => {
      files.set(path, typeof data === "string" ? data : new TextDecoder().decode(data));
    },
    remove: async (path: string) => {
      files.delete(path);
    },
  } as unknown as WorkspaceFs;
}

function entries(): MessageEntry[] {
  const user = userMessage("ses", { id: "msg_1" });
  const reply = assistantMessage("ses", user.id, { id: "msg_2" });
  return [
    { info: user, parts: [] },
    {
      info: reply,
      parts: [
        part(reply, { type: "step-start", snapshot: "snap_1" }, "prt_1"),
        part(reply, { type: "patch", hash: "h", files: ["src/app.ts", "src/new.ts"] }, "prt_2"),
        part(reply, { type: "step-start", snapshot: "snap_2" }, "prt_3"),
        part(reply, { type: "patch", hash: "h2", files: ["src/app.ts"] }, "prt_4"),
      ],
    },
  ];
}

describe("changedFiles", () => {
  it("lists each file once with the snapshot from before its first change", () => {
    expect(changedFiles(entries())).toEqual([
      { path: "src/app.ts", snapshot: "snap_1" },
      { path: "src/new.ts", snapshot: "snap_1" },
    ]);
  });
});

describe("coarseLineDiff", () => {
  it("keeps context around the changed block", () => {
    expect(coarseLineDiff("a\nb\nc\nd", "a\nb\nX\nd", 1)).toEqual({ lines: [" b", "-c", "+X", " d"], additions: 1, deletions: 1 });
  });
});

describe("ChangesView", () => {
  it("shows the diff of each changed file and reverts one file to its state before the session", async () => {
    storage = await openStorage({ name: `changes-${Math.random()}` });
    await storage.blobs.putMany([{ hash: "old-app", data: "export const a = 1;\n" }]);
    await storage.snapshots.put({ v: 1, id: "snap_1", workspaceId: "ws", createdAt: 1, files: { "src/app.ts": "old-app" } });
    const files = new Map([
      ["src/app.ts", "export const a = 2;\n"],
      ["src/new.ts", "export const b = 1;\n"],
    ]);
    const source = new SnapshotChangesSource(storage, memoryFs(files));
    view = await render(<ChangesView entries={entries()} source={source} />);
    await settleUntil(() => !!view!.container.querySelector('[aria-label="Diff"]')?.textContent?.includes("+export"), "the first file's diff");
    expect(Array.from(view.container.querySelectorAll(".changes-file")).map((b) => b.textContent)).toEqual(["src/app.ts", "src/new.ts"]);
    const diff = view.container.querySelector('[aria-label="Diff"]')!.textContent!;
    expect(diff).toContain("-export const a = 1;");
    expect(diff).toContain("+export const a = 2;");

    expect(view.container.querySelector(".changes-file-reverted")).toBeNull();

    await click(button(view.container, "Revert file"));
    await settleUntil(() => !!view!.container.textContent?.includes("Back to how it was"), "the revert of src/app.ts");
    expect(files.get("src/app.ts")).toBe("export const a = 1;\n");
    expect(view.container.textContent).toContain("Back to how it was before the session.");
    // Marked as reverted in the list, and nothing left to revert.
    expect(Array.from(view.container.querySelectorAll(".changes-file")).map((b) => b.textContent)).toEqual(["src/app.ts (reverted)", "src/new.ts"]);
    expect(button(view.container, "Revert file")!.disabled).toBe(true);

    await click(view.container.querySelectorAll<HTMLButtonElement>(".changes-file")[1]);
    await settleUntil(() => !!view!.container.textContent?.includes("New file."), "the second file's diff");
    await click(button(view.container, "Revert file"));
    await settleUntil(() => !files.has("src/new.ts") && !!view!.container.querySelectorAll(".changes-file")[1]?.textContent?.includes("reverted"), "the revert of src/new.ts");
    expect(Array.from(view.container.querySelectorAll(".changes-file")).map((b) => b.textContent)).toEqual(["src/app.ts (reverted)", "src/new.ts (reverted)"]);
  });

  it("marks a file the user edited back to its earlier content as reverted when the view opens", async () => {
    storage = await openStorage({ name: `changes-${Math.random()}` });
    await storage.blobs.putMany([{ hash: "old-app", data: "same\n" }]);
    await storage.snapshots.put({ v: 1, id: "snap_1", workspaceId: "ws", createdAt: 1, files: { "src/app.ts": "old-app" } });
    const source = new SnapshotChangesSource(storage, memoryFs(new Map([["src/app.ts", "same\n"], ["src/new.ts", "x"]])));
    view = await render(<ChangesView entries={entries()} source={source} />);
    await settleUntil(() => !!view!.container.querySelector(".changes-file")?.textContent?.includes("reverted"), "the file to be marked as reverted");
    expect(Array.from(view.container.querySelectorAll(".changes-file")).map((b) => b.textContent)).toEqual(["src/app.ts (reverted)", "src/new.ts"]);
  });

  it("uses the injected diff renderer (the shell's Monaco diff editor) when given", async () => {
    storage = await openStorage({ name: `changes-${Math.random()}` });
    await storage.snapshots.put({ v: 1, id: "snap_1", workspaceId: "ws", createdAt: 1, files: {} });
    const source = new SnapshotChangesSource(storage, memoryFs(new Map([["src/app.ts", "new"], ["src/new.ts", "x"]])));
    const rendered: unknown[] = [];
    view = await render(
      <ChangesView
        entries={entries()}
        source={source}
        renderDiff={(props) => {
          rendered.push(props);
          return <div className="monaco-diff-stub">{props.path}</div>;
        }}
      />,
    );
    await settleUntil(() => (rendered.at(-1) as { modified?: string } | undefined)?.modified === "new", "the diff renderer to get the file");
    expect(rendered.at(-1)).toEqual({ path: "src/app.ts", original: "", modified: "new" });
    expect(view.container.querySelector(".monaco-diff-stub")?.textContent).toBe("src/app.ts");
  });
});
