// Small pieces of the app shell: notifications, dialogs, pane sizes, shortcuts, the preview's URL
// check, editor languages, workspace names and the terminal-to-shell wiring.
import { describe, expect, it } from "vitest";
import { Emitter, UserFacingError } from "../../src/base";
import type { Shell } from "../../src/runtime";
import {
  clampSize,
  createLayoutStore,
  DEFAULT_LAYOUT,
  HANDLE_SIZE,
  MIN_EDITOR_HEIGHT,
  MIN_EDITOR_WIDTH,
  PANE_LIMITS,
  restoreLayout,
} from "../../src/ui/app/layout-store";
import { shortcutPane } from "../../src/ui/app/shortcuts";
import { sizeForKey } from "../../src/ui/app/split-handle";
import { checkWorkspaceName } from "../../src/ui/app/workspace-switcher";
import { Dialogs, MAX_NOTIFICATIONS, Notifications } from "../../src/ui/common";
import { languageForPath } from "../../src/ui/editor";
import { isTypeScriptSource } from "../../src/ui/editor/languages";
import { safePreviewUrl } from "../../src/ui/preview";
import { TerminalSession, XTERM_HIGH_WATER, type TerminalView } from "../../src/ui/terminal";

describe("Notifications", () => {
  it("stacks notices, counts repeats instead of duplicating them, and dismisses", () => {
    const n = new Notifications();
    const id = n.notify("error", "Disk full");
    n.notify("error", "Disk full");
    n.notify("warning", "Slow");
    expect(n.store.getState().items.map((i) => [i.message, i.count])).toEqual([
      ["Disk full", 2],
      ["Slow", 1],
    ]);
    n.dismiss(id);
    expect(n.store.getState().items.map((i) => i.message)).toEqual(["Slow"]);
  });

  it("drops the oldest beyond the limit", () => {
    const n = new Notifications();
    for (let i = 0; i < MAX_NOTIFICATIONS + 2; i++) n.notify("error", `e${i}`);
    expect(n.store.getState().items.map((i) => i.message)[0]).toBe("e2");
    expect(n.store.getState().items).toHaveLength(MAX_NOTIFICATIONS);
  });

  it("lets info notices expire and keeps errors", () => {
    const timers: Array<() => void> = [];
    const schedule = ((fn: () => void) => {
      timers.push(fn);
      return 0;
    }) as unknown as typeof setTimeout;
    const n = new Notifications(schedule);
    n.info("Saved");
    n.notify("error", "Broken");
    expect(timers).toHaveLength(1);
    timers[0]!();
    expect(n.store.getState().items.map((i) => i.message)).toEqual(["Broken"]);
  });

  it("shows user-facing errors as they are and adds context to others", () => {
    const n = new Notifications();
    n.error(new UserFacingError("Storage is full. Delete old workspaces.", "quota"), "Saving");
    n.error(new Error("EIO"), "Could not save a.ts");
    expect(n.store.getState().items.map((i) => i.message)).toEqual(["Storage is full. Delete old workspaces.", "Could not save a.ts: EIO"]);
  });
});

describe("Dialogs", () => {
  it("answers one dialog at a time, in order", async () => {
    const d = new Dialogs();
    const first = d.confirm("Delete?", "Really?", "Delete");
    const second = d.prompt("Name", "Workspace name");
    const current = d.store.getState().current!;
    expect(current.request.title).toBe("Delete?");
    d.answer(current.id, "confirm");
    expect(await first).toBe(true);
    const next = d.store.getState().current!;
    expect(next.request.kind).toBe("prompt");
    d.answer(next.id, "New name");
    expect(await second).toBe("New name");
    expect(d.store.getState().current).toBeUndefined();
  });

  it("dispose cancels everything pending", async () => {
    const d = new Dialogs();
    const a = d.confirm("A", "a", "OK");
    const b = d.prompt("B", "b");
    d.dispose();
    expect(await a).toBe(false);
    expect(await b).toBeUndefined();
  });
});

describe("layout", () => {
  it("clamps pane sizes to their limits", () => {
    expect(clampSize("tree", 10)).toBe(PANE_LIMITS.tree.min);
    expect(clampSize("tree", 10_000)).toBe(PANE_LIMITS.tree.max);
    expect(clampSize("terminal", 300.4)).toBe(300);
  });

  it("restores saved sizes and ignores malformed values", () => {
    expect(restoreLayout(null)).toEqual(DEFAULT_LAYOUT);
    expect(restoreLayout("not json")).toEqual(DEFAULT_LAYOUT);
    expect(restoreLayout(JSON.stringify({ tree: 300, right: "wide", terminal: 1e9 }))).toEqual({
      tree: 300,
      right: DEFAULT_LAYOUT.right,
      terminal: PANE_LIMITS.terminal.max,
    });
  });

  it("remembers resized panes in the given storage", () => {
    const saved = new Map<string, string>();
    const storage = { getItem: (k: string) => saved.get(k) ?? null, setItem: (k: string, v: string) => void saved.set(k, v) };
    const layout = createLayoutStore(storage);
    layout.resize("tree", 321);
    expect(createLayoutStore(storage).getState().sizes.tree).toBe(321);
    layout.toggle("terminal");
    expect(layout.getState().hidden.terminal).toBe(true);
  });

  it("keeps pane sizes per workspace; a workspace without its own starts from the last ones", () => {
    const saved = new Map<string, string>();
    const storage = { getItem: (k: string) => saved.get(k) ?? null, setItem: (k: string, v: string) => void saved.set(k, v) };
    const layout = createLayoutStore(storage);
    layout.useWorkspace("ws-a");
    layout.resize("tree", 300);
    layout.useWorkspace("ws-b");
    expect(layout.getState().sizes.tree).toBe(300);
    layout.resize("tree", 250);
    layout.useWorkspace("ws-a");
    expect(layout.getState().sizes.tree).toBe(300);
    // After a reload each workspace gets its own back.
    const reloaded = createLayoutStore(storage);
    reloaded.useWorkspace("ws-b");
    expect(reloaded.getState().sizes.tree).toBe(250);
    reloaded.useWorkspace("ws-a");
    expect(reloaded.getState().sizes.tree).toBe(300);
  });

  it("fits pane sizes to the workbench: End on every separator leaves the editor its minimum area", () => {
    const layout = createLayoutStore();
    layout.setViewport({ width: 1440, height: 800 });
    // What the End key asks for on each separator, in the order QA pressed them.
    layout.resize("tree", PANE_LIMITS.tree.max);
    layout.resize("terminal", PANE_LIMITS.terminal.max);
    layout.resize("right", PANE_LIMITS.right.max);
    const { sizes } = layout.getState();
    const editorWidth = 1440 - sizes.tree - sizes.right - 2 * HANDLE_SIZE;
    expect(editorWidth).toBeGreaterThanOrEqual(MIN_EDITOR_WIDTH);
    expect(800 - sizes.terminal - HANDLE_SIZE).toBeGreaterThanOrEqual(MIN_EDITOR_HEIGHT);
    expect(sizes.tree).toBe(PANE_LIMITS.tree.max);
    expect(layout.maxSize("right")).toBe(sizes.right);
  });

  it("re-fits on a smaller window and after a reload, and gives the chosen sizes back when the window grows", () => {
    const saved = new Map<string, string>();
    const storage = { getItem: (k: string) => saved.get(k) ?? null, setItem: (k: string, v: string) => void saved.set(k, v) };
    const layout = createLayoutStore(storage);
    layout.setViewport({ width: 1920, height: 1080 });
    layout.resize("tree", 600);
    layout.resize("right", 900);
    layout.resize("terminal", 900);
    expect(layout.getState().sizes).toEqual({ tree: 600, right: 900, terminal: 900 });

    layout.setViewport({ width: 1024, height: 560 });
    const small = layout.getState().sizes;
    expect(1024 - small.tree - small.right - 2 * HANDLE_SIZE).toBeGreaterThanOrEqual(MIN_EDITOR_WIDTH);
    expect(560 - small.terminal - HANDLE_SIZE).toBeGreaterThanOrEqual(MIN_EDITOR_HEIGHT);
    // The right panel gives way first; nothing goes below its minimum.
    expect(small.right).toBe(PANE_LIMITS.right.min);
    expect(small.tree).toBeGreaterThanOrEqual(PANE_LIMITS.tree.min);

    // A reload on the small window restores the saved sizes fitted, not as saved.
    const reloaded = createLayoutStore(storage);
    reloaded.setViewport({ width: 1024, height: 560 });
    expect(reloaded.getState().sizes).toEqual(small);

    layout.setViewport({ width: 1920, height: 1080 });
    expect(layout.getState().sizes).toEqual({ tree: 600, right: 900, terminal: 900 });
  });

  it("a hidden side pane leaves its width to the other one", () => {
    const layout = createLayoutStore();
    layout.setViewport({ width: 1280, height: 800 });
    layout.resize("right", 900);
    const shown = layout.getState().sizes.right;
    expect(shown).toBe(1280 - MIN_EDITOR_WIDTH - 2 * HANDLE_SIZE - DEFAULT_LAYOUT.tree);
    layout.toggle("tree");
    expect(layout.maxSize("right")).toBe(900);
  });

  it("maps separator keys to sizes in the pane's direction", () => {
    const tree = { pane: "tree" as const, orientation: "vertical" as const, size: 240, direction: 1 as const };
    expect(sizeForKey("ArrowRight", false, tree)).toBe(256);
    expect(sizeForKey("ArrowLeft", true, tree)).toBe(176);
    expect(sizeForKey("Home", false, tree)).toBe(PANE_LIMITS.tree.min);
    expect(sizeForKey("End", false, tree)).toBe(PANE_LIMITS.tree.max);
    expect(sizeForKey("End", false, { ...tree, max: 420 })).toBe(420);
    expect(sizeForKey("ArrowUp", false, tree)).toBeUndefined();
    // The terminal sits below its handle: moving the handle up (ArrowUp) makes it taller.
    const terminal = { pane: "terminal" as const, orientation: "horizontal" as const, size: 200, direction: -1 as const };
    expect(sizeForKey("ArrowUp", false, terminal)).toBe(216);
    expect(sizeForKey("ArrowDown", false, terminal)).toBe(184);
  });

  it("toggles panes with the VS Code shortcuts", () => {
    const key = (k: string, mods: Partial<KeyboardEvent> = {}) => ({ key: k, ctrlKey: true, metaKey: false, altKey: false, shiftKey: false, ...mods });
    expect(shortcutPane(key("b"))).toBe("tree");
    expect(shortcutPane(key("j"))).toBe("terminal");
    expect(shortcutPane(key("b", { altKey: true }))).toBe("right");
    expect(shortcutPane(key("b", { ctrlKey: false, metaKey: true }))).toBe("tree");
    expect(shortcutPane(key("b", { ctrlKey: false }))).toBeUndefined();
    expect(shortcutPane(key("j", { shiftKey: true }))).toBeUndefined();
  });
});

describe("preview URLs", () => {
  it("accepts http(s) only", () => {
    expect(safePreviewUrl(" http://localhost:5173/ ")).toBe("http://localhost:5173/");
    expect(safePreviewUrl("https://x.webcontainer.io/a?b=1")).toBe("https://x.webcontainer.io/a?b=1");
    expect(safePreviewUrl("javascript:alert(1)")).toBeUndefined();
    expect(safePreviewUrl("data:text/html,<script>1</script>")).toBeUndefined();
    expect(safePreviewUrl("not a url")).toBeUndefined();
  });
});

describe("editor languages", () => {
  it("picks Monaco's language by name and extension", () => {
    expect(languageForPath("src/a.tsx")).toBe("typescript");
    expect(languageForPath("a.mjs")).toBe("javascript");
    expect(languageForPath("README.md")).toBe("markdown");
    expect(languageForPath("Dockerfile")).toBe("dockerfile");
    expect(languageForPath(".env.local")).toBe("ini");
    expect(languageForPath("notes")).toBe("plaintext");
    expect(languageForPath("a.unknown")).toBe("plaintext");
  });

  it("knows which files the TypeScript project needs", () => {
    expect(isTypeScriptSource("src/a.ts")).toBe(true);
    expect(isTypeScriptSource("package.json")).toBe(true);
    expect(isTypeScriptSource("README.md")).toBe(false);
  });
});

describe("workspace names", () => {
  const existing = [{ v: 1, id: "ws_1", name: "Alpha", createdAt: 0, updatedAt: 0 }];
  it("refuses empty, too long and taken names (case-insensitive) but allows keeping one's own", () => {
    expect(checkWorkspaceName("  ", existing)).toMatch(/empty/);
    expect(checkWorkspaceName("x".repeat(200), existing)).toMatch(/at most/);
    expect(checkWorkspaceName("alpha", existing)).toMatch(/already exists/);
    expect(checkWorkspaceName("Alpha", existing, "ws_1")).toBeUndefined();
    expect(checkWorkspaceName("Beta", existing)).toBeUndefined();
  });
});

describe("TerminalSession", () => {
  it("sends keystrokes to the shell, output to the view, resizes, and disposes both", () => {
    const viewData = new Emitter<string>();
    const viewResize = new Emitter<{ cols: number; rows: number }>();
    const shellData = new Emitter<string>();
    const written: string[] = [];
    const typed: string[] = [];
    const sizes: Array<{ cols: number; rows: number }> = [];
    let viewDisposed = false;
    let shellDisposed = false;
    let opened: { cols: number; rows: number } | undefined;
    const view: TerminalView = {
      cols: 100,
      rows: 30,
      write: (d) => void written.push(d),
      onData: viewData.event,
      onResize: viewResize.event,
      dispose: () => void (viewDisposed = true),
    };
    const shell: Shell = {
      write: (d) => void typed.push(d),
      onData: shellData.event,
      resize: (s) => void sizes.push(s),
      dispose: () => void (shellDisposed = true),
    };
    const session = new TerminalSession(
      {
        openShell: (size) => {
          opened = size;
          return shell;
        },
      },
      view,
    );
    expect(opened).toEqual({ cols: 100, rows: 30 });
    viewData.fire("ls\r");
    viewData.fire("\x03");
    shellData.fire("a.txt\r\n$ ");
    viewResize.fire({ cols: 80, rows: 24 });
    expect(typed).toEqual(["ls\r", "\x03"]);
    expect(written).toEqual(["a.txt\r\n$ "]);
    expect(sizes).toEqual([{ cols: 80, rows: 24 }]);
    session.dispose();
    expect(viewDisposed && shellDisposed).toBe(true);
    viewData.fire("after");
    expect(typed).toHaveLength(2);
  });

  it("hands xterm at most XTERM_HIGH_WATER unprocessed characters; the rest waits, in order, and Ctrl-C drops what waits", () => {
    const viewData = new Emitter<string>();
    const shellData = new Emitter<string>();
    const written: Array<{ data: string; parsed: () => void }> = [];
    const typed: string[] = [];
    const view: TerminalView = {
      cols: 100,
      rows: 30,
      write: (data, parsed) => void written.push({ data, parsed: parsed! }),
      onData: viewData.event,
      onResize: new Emitter<{ cols: number; rows: number }>().event,
      dispose: () => undefined,
    };
    const shell: Shell = { write: (d) => void typed.push(d), onData: shellData.event, resize: () => undefined, dispose: () => undefined };
    const session = new TerminalSession({ openShell: () => shell }, view);
    const piece = (name: string) => name.padEnd(XTERM_HIGH_WATER / 2, ".");
    for (const name of ["a", "b", "c", "d", "e"]) shellData.fire(piece(name));
    // a and b fill xterm's share; c, d and e wait.
    expect(written.map((w) => w.data[0])).toEqual(["a", "b"]);
    written[0]!.parsed();
    expect(written.map((w) => w.data[0])).toEqual(["a", "b", "c"]);
    written[1]!.parsed();
    written[2]!.parsed();
    expect(written.map((w) => w.data[0])).toEqual(["a", "b", "c", "d", "e"]);
    expect(written.map((w) => w.data).join("")).toBe(["a", "b", "c", "d", "e"].map(piece).join(""));
    // A flood again: Ctrl-C drops what waits (not what xterm has), then the shell's "^C" and prompt follow.
    for (const name of ["f", "g", "h", "i"]) shellData.fire(piece(name));
    expect(written.map((w) => w.data[0]).slice(5)).toEqual([]);
    for (const w of written.slice(3)) w.parsed();
    expect(written.map((w) => w.data[0]).slice(5)).toEqual(["f", "g"]);
    viewData.fire("\x03");
    expect(typed).toEqual(["\x03"]);
    shellData.fire("^C\r\n$ ");
    for (const w of written.slice(5)) w.parsed();
    expect(written.map((w) => w.data[0]).slice(5)).toEqual(["f", "g", "^"]);
    expect(written.at(-1)!.data).toBe("^C\r\n$ ");
    session.dispose();
  });
});
