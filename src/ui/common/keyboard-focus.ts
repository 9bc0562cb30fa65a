// Ways out of keyboard traps, as in VS Code: "Tab moves focus" (Ctrl+M) makes Tab leave the editor
// and the terminal instead of being typed into them, and F6 / Shift+F6 move between the main regions.
import { createStore } from "zustand/vanilla";

export interface TabFocusState {
  /** On: Tab and Shift+Tab move the focus in the editor and the terminal. */
  on: boolean;
}

/** One switch for the editor and the terminal (view state, not persisted, like VS Code's). */
export const tabFocusMode = createStore<TabFocusState>(() => ({ on: false }));

export function toggleTabFocusMode(): void {
  tabFocusMode.setState({ on: !tabFocusMode.getState().on });
}

/** Ctrl+M toggles (also Ctrl+Shift+M, VS Code's binding on macOS where Cmd+M minimises). */
export function isTabFocusToggle(event: Pick<KeyboardEvent, "key" | "ctrlKey" | "metaKey" | "altKey">): boolean {
  return event.ctrlKey && !event.metaKey && !event.altKey && event.key.toLowerCase() === "m";
}

/** The workbench's regions in F6 order; `focus` lists where inside a region the keyboard should land. */
export const FOCUS_REGIONS: ReadonlyArray<{ name: string; selector: string; focus: string[] }> = [
  { name: "files", selector: ".pane-tree", focus: ['[role="tree"]'] },
  // Monaco takes input in an EditContext div where the browser has it, else in its input textarea.
  { name: "editor", selector: ".editor-panel", focus: [".monaco-editor .native-edit-context", ".monaco-editor textarea.inputarea", '[role="tab"][aria-selected="true"]'] },
  { name: "terminal", selector: ".pane-terminal", focus: [".terminal-host textarea"] },
  { name: "side panel", selector: ".pane-right", focus: ['[role="tabpanel"] textarea', '[role="tab"][aria-selected="true"]'] },
];

const TABBABLE = 'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

function visible(element: Element): boolean {
  return !(element as HTMLElement).hidden && !element.closest("[hidden]");
}

function focusInside(region: (typeof FOCUS_REGIONS)[number], element: HTMLElement): boolean {
  const target =
    region.focus.map((s) => element.querySelector<HTMLElement>(s)).find((e) => e !== null && visible(e)) ??
    element.querySelector<HTMLElement>(TABBABLE);
  if (!target) return false;
  target.focus();
  return element.contains(target.ownerDocument.activeElement);
}

/** Puts the focus in the first of the named regions that is shown and can take it; returns which. */
export function focusRegion(root: ParentNode, names: string[]): string | undefined {
  for (const name of names) {
    const region = FOCUS_REGIONS.find((r) => r.name === name);
    const element = region ? root.querySelector<HTMLElement>(region.selector) : null;
    if (region && element && visible(element) && focusInside(region, element)) return name;
  }
  return undefined;
}

/**
 * Moves the focus to the next (or previous) visible region, starting from the one holding the focus.
 * Returns the region's name, or undefined when there is none to move to.
 */
export function focusNextRegion(root: ParentNode, direction: 1 | -1, active: Element | null): string | undefined {
  const regions = FOCUS_REGIONS.map((r) => ({ ...r, element: root.querySelector(r.selector) })).filter(
    (r): r is typeof r & { element: HTMLElement } => r.element !== null && visible(r.element),
  );
  if (regions.length === 0) return undefined;
  const current = active ? regions.findIndex((r) => r.element.contains(active)) : -1;
  for (let step = 1; step <= regions.length; step++) {
    const start = current < 0 ? (direction === 1 ? -1 : 0) : current;
    const region = regions[(start + direction * step + regions.length * 2) % regions.length]!;
    if (focusInside(region, region.element)) return region.name;
  }
  return undefined;
}
