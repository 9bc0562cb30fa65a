// @vitest-environment happy-dom
// Ways out of keyboard traps: F6 / Shift+F6 between the workbench regions, Ctrl+M "Tab moves focus".
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { focusNextRegion, isTabFocusToggle, tabFocusMode, toggleTabFocusMode } from "../../src/ui/common";

function workbench(options: { terminalHidden?: boolean } = {}) {
  document.body.innerHTML = `
    <div class="workbench">
      <aside class="pane pane-tree"><button id="new-file">New file</button><div role="tree" tabindex="0" id="tree"></div></aside>
      <main class="center">
        <div class="editor-panel">
          <div role="tablist"><div role="tab" aria-selected="true" tabindex="0" id="tab">a.ts</div></div>
          <div class="monaco-editor"><textarea class="ime-text-area"></textarea><div class="native-edit-context" role="textbox" tabindex="0" id="monaco"></div></div>
        </div>
        <div class="pane pane-terminal" ${options.terminalHidden ? "hidden" : ""}>
          <button id="clear">Clear</button><div class="terminal-host"><textarea id="xterm"></textarea></div>
        </div>
      </main>
      <aside class="pane pane-right">
        <div role="tablist"><button role="tab" aria-selected="true" id="chat-tab">Chat</button></div>
        <div role="tabpanel"><textarea id="prompt"></textarea></div>
      </aside>
    </div>`;
}

const f6 = (direction: 1 | -1 = 1) => focusNextRegion(document, direction, document.activeElement);
const focused = () => document.activeElement?.id;

beforeEach(() => tabFocusMode.setState({ on: false }));
afterEach(() => {
  document.body.innerHTML = "";
});

describe("F6 between regions", () => {
  it("cycles tree → editor → terminal → side panel → tree, landing on each region's main control", () => {
    workbench();
    (document.getElementById("monaco") as HTMLElement).focus();
    expect(f6()).toBe("terminal");
    expect(focused()).toBe("xterm");
    expect(f6()).toBe("side panel");
    expect(focused()).toBe("prompt");
    expect(f6()).toBe("files");
    expect(focused()).toBe("tree");
    expect(f6()).toBe("editor");
    expect(focused()).toBe("monaco");
  });

  it("Shift+F6 goes backwards and skips hidden panes", () => {
    workbench({ terminalHidden: true });
    (document.getElementById("prompt") as HTMLElement).focus();
    expect(f6(-1)).toBe("editor");
    expect(focused()).toBe("monaco");
    expect(f6(-1)).toBe("files");
    expect(f6(-1)).toBe("side panel");
  });

  it("from outside every region (body, top bar) starts at the first or the last region", () => {
    workbench();
    expect(f6()).toBe("files");
    (document.activeElement as HTMLElement).blur();
    expect(f6(-1)).toBe("side panel");
  });
});

describe("Tab moves focus", () => {
  it("Ctrl+M (and Ctrl+Shift+M) toggle one switch for the editor and the terminal", () => {
    expect(isTabFocusToggle({ key: "m", ctrlKey: true, metaKey: false, altKey: false })).toBe(true);
    expect(isTabFocusToggle({ key: "M", ctrlKey: true, metaKey: false, altKey: false })).toBe(true);
    expect(isTabFocusToggle({ key: "m", ctrlKey: false, metaKey: true, altKey: false })).toBe(false);
    expect(isTabFocusToggle({ key: "m", ctrlKey: true, metaKey: false, altKey: true })).toBe(false);
    expect(tabFocusMode.getState().on).toBe(false);
    toggleTabFocusMode();
    expect(tabFocusMode.getState().on).toBe(true);
    toggleTabFocusMode();
    expect(tabFocusMode.getState().on).toBe(false);
  });
});
