// @vitest-environment happy-dom
// Issue 9, point 6: one definition of invisible and text-direction characters (base/paths.ts), used
// wherever a name from outside appears: names holding one are refused at every entry point, titles
// show them as ⟨U+…⟩, and imports refuse names that differ only by case or Unicode normalisation.
import "../support/happy-dom-node-name";
import { afterEach, describe, expect, it } from "vitest";
import { toDisposable, hasInvisibleChars, revealInvisibleChars, revealInvisibleInText, validateName, validatePath } from "../../src/base";
import { WorkspaceFiles, createWorkspace } from "../../src/runtime";
import { openStorage } from "../../src/storage";
import { ImportError, readFileList, readZip, restoreShareEnvelope, SHARE_FORMAT, SHARE_VERSION } from "../../src/transfer";
import { ChatController } from "../../src/ui/chat/chat-controller";
import { ChatPanel } from "../../src/ui/chat/chat-panel";
import { SessionsSidebar } from "../../src/ui/sessions";
import { buildZip } from "../support/zip-builder";
import { FakeAgent, ManualFrames, session } from "./ui-chat-fixtures";
import { render, settle } from "./ui-chat-render";

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Every kind the issue names, with a representative of each range. */
const CHARACTERS: Record<string, number[]> = {
  "Cf: zero-width and direction marks": [0x200b, 0x200c, 0x200d, 0x200e, 0x200f],
  "bidi embeddings, overrides and isolates": [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069],
  "BOM and Arabic letter mark": [0xfeff, 0x061c],
  "soft hyphen and Mongolian vowel separator": [0x00ad, 0x180e],
  "word joiner and invisible operators": [0x2060, 0x2061, 0x2062, 0x2063, 0x2064],
  "other Cf: interlinear annotation, tag characters": [0xfff9, 0xe0001, 0xe0041],
  "line and paragraph separators": [0x2028, 0x2029],
  "C0 controls and DEL": [0x01, 0x07, 0x09, 0x0a, 0x0d, 0x1b, 0x1f, 0x7f],
  "C1 controls": [0x80, 0x85, 0x9b, 0x9f],
};
const ALL = Object.values(CHARACTERS).flat();
const label = (code: number) => `⟨U+${code.toString(16).toUpperCase().padStart(4, "0")}⟩`;

describe("the one definition", () => {
  it.each(Object.entries(CHARACTERS))("covers %s: refused in names, revealed in text", (_kind, codes) => {
    for (const code of codes) {
      const c = String.fromCodePoint(code);
      expect(hasInvisibleChars(`a${c}b`), label(code)).toBe(true);
      expect(revealInvisibleChars(`a${c}b`)).toBe(`a${label(code)}b`);
      const problem = validateName(`report${c}.txt`);
      expect(problem, label(code)).toContain(label(code));
      expect(problem).toMatch(/invisible or text-direction character/);
      expect(() => validatePath(`src/x${c}y/a.ts`), label(code)).toThrow();
    }
  });

  it("leaves visible text alone, and line breaks and tabs in multi-line text", () => {
    for (const text of ["café", "файл", "日本語", "שלום", "🙂", "a\u00a0b", "a\u2010b", "a b"]) expect(hasInvisibleChars(text), text).toBe(false);
    expect(revealInvisibleInText("echo a\n\techo b\r\n\u202Ex")).toBe("echo a\n\techo b\r\n⟨U+202E⟩x");
    expect(revealInvisibleChars("a\nb")).toBe("a⟨U+000A⟩b");
    const everything = revealInvisibleChars(ALL.map((code) => String.fromCodePoint(code)).join(""));
    expect(hasInvisibleChars(everything)).toBe(false);
    expect(everything).toBe(ALL.map(label).join(""));
  });
});

describe("names are refused at every entry point", () => {
  it("a zip entry", () => {
    for (const code of [0x00ad, 0x2060, 0x180e, 0x2028, 0x85]) {
      const zip = buildZip([{ name: `p/inv${String.fromCodePoint(code)}oice.txt`, data: "x" }]);
      expect(() => readZip(zip), label(code)).toThrow(ImportError);
    }
  });

  it("a share's file path", () => {
    const envelope = { format: SHARE_FORMAT, version: SHARE_VERSION, createdAt: 1, session: { title: "t", agent: "build" }, messages: [], parts: [], files: [{ path: "a\u2061b.txt", data: "x" }], omitted: [] };
    expect(() => restoreShareEnvelope(envelope)).toThrow(/⟨U\+2061⟩/);
  });

  it("a file written by the editor, the agent or the terminal (WorkspaceFiles), and a workspace name", async () => {
    const storage = await openStorage({ name: `invisible-${Math.random()}` });
    const files = await WorkspaceFiles.open(storage, "ws");
    cleanups.push(() => {
      files.dispose();
      storage.close();
    });
    await expect(files.writeFile("src/a\u00adb.ts", "x")).rejects.toThrow(/⟨U\+00AD⟩/);
    await expect(files.writeFile("src\u2029/b.ts", "x")).rejects.toThrow(/⟨U\+2029⟩/);
    await expect(createWorkspace(storage, "Demo\u2060")).rejects.toThrow(/⟨U\+2060⟩/);
  });
});

describe("names that differ only by case or Unicode normalisation", () => {
  it("are refused in a zip, folders included", () => {
    expect(() => readZip(buildZip([{ name: "p/README.md", data: "a" }, { name: "p/readme.md", data: "b" }]))).toThrow(/"README\.md" and "readme\.md" differ only by upper\/lower case/);
    expect(() => readZip(buildZip([{ name: "Src/a.ts", data: "a" }, { name: "src/b.ts", data: "b" }]))).toThrow(/"Src" and "src" differ only/);
    const nfc = "caf\u00e9.md";
    const nfd = "cafe\u0301.md";
    expect(() => readZip(buildZip([{ name: nfc, data: "a" }, { name: nfd, data: "b" }]))).toThrow(/Unicode normalisation/);
  });

  it("are refused in a folder import", async () => {
    const file = (path: string) => ({ name: path.split("/").pop()!, size: 1, webkitRelativePath: path, arrayBuffer: async () => new TextEncoder().encode("x").buffer as ArrayBuffer });
    await expect(readFileList([file("proj/caf\u00e9/a.ts"), file("proj/cafe\u0301/b.ts")])).rejects.toThrow(/differ only by upper\/lower case or Unicode normalisation/);
  });

  it("are fine when they really differ", () => {
    expect(readZip(buildZip([{ name: "p/a.md", data: "a" }, { name: "p/b.md", data: "b" }])).entries).toHaveLength(2);
  });
});

describe("titles show the characters revealed", () => {
  const title = "Invoice \u202Efdp.exe\u2060";
  const shown = "Invoice ⟨U+202E⟩fdp.exe⟨U+2060⟩";

  it("in the sessions list", async () => {
    const view = await render(<SessionsSidebar sessions={[session({ id: "ses_x", title })]} activeSessionId="ses_x" onOpen={() => {}} onNew={() => {}} onRename={() => {}} onDelete={() => {}} now={5} />);
    cleanups.push(() => view.unmount());
    expect(view.container.querySelector(".session-title")?.textContent).toBe(shown);
    expect(view.container.querySelector(`[aria-label="Delete ${shown}"]`)).not.toBeNull();
    expect(hasInvisibleChars(view.container.innerHTML)).toBe(false);
  });

  const noFiles = {
    listAll: async () => [],
    list: async () => [],
    readFile: async () => new Uint8Array(),
    readText: async () => "",
    onDidChange: () => toDisposable(() => {}),
  };

  it("in the chat header", async () => {
    const agent = new FakeAgent();
    agent.sessions = [session({ id: "ses_x", title })];
    const controller = new ChatController(agent, { scheduler: new ManualFrames() });
    cleanups.push(() => controller.dispose());
    await controller.start();
    await controller.openSession("ses_x");
    const view = await render(<ChatPanel controller={controller} files={noFiles} hasProvider onOpenSettings={() => {}} onOpenFile={() => {}} onProblem={() => {}} />);
    cleanups.push(() => view.unmount());
    await settle();
    expect(view.container.querySelector(".chat-title")?.textContent).toBe(shown);
    expect(view.container.querySelector(".chat-title")?.getAttribute("title")).toBe(shown);
  });

  it("in the delete and rename dialogs; a new title holding one is refused", async () => {
    const agent = new FakeAgent();
    agent.sessions = [session({ id: "ses_x", title })];
    const asked: string[] = [];
    const problems: string[] = [];
    const controller = new ChatController(agent, {
      scheduler: new ManualFrames(),
      confirm: async (_heading, message) => (asked.push(message), false),
      promptTitle: async (initial) => (asked.push(initial), "Safe\u202Eeman"),
      onProblem: (message) => problems.push(message),
    });
    cleanups.push(() => controller.dispose());
    await controller.sync.loadSessions();
    await controller.remove("ses_x");
    await controller.rename("ses_x");
    expect(asked).toEqual([`"${shown}" and its messages will be deleted. Files in the workspace are not changed.`, shown]);
    expect(agent.callsOf("renameSession")).toEqual([]);
    expect(problems.join("\n")).toContain("Safe⟨U+202E⟩eman");
  });
});
