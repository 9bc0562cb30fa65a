// Workbench keyboard shortcuts (VS Code's): Ctrl/Cmd+B file tree, Ctrl/Cmd+J terminal,
// Ctrl/Cmd+Alt+B side panel, Ctrl+` focus the terminal, Ctrl+M "Tab moves focus", F6 / Shift+F6
// next / previous region. Editor shortcuts live in the editor panel.
import { useEffect } from "react";
import { focusNextRegion, focusRegion, isTabFocusToggle, toggleTabFocusMode, type Dialogs } from "../common";
import type { LayoutStore, PaneName } from "./layout-store";

export function shortcutPane(event: Pick<KeyboardEvent, "key" | "ctrlKey" | "metaKey" | "altKey" | "shiftKey">): PaneName | undefined {
  if (!(event.ctrlKey || event.metaKey) || event.shiftKey) return undefined;
  const key = event.key.toLowerCase();
  if (key === "b") return event.altKey ? "right" : "tree";
  if (key === "j" && !event.altKey) return "terminal";
  return undefined;
}

export function useWorkbenchShortcuts(layout: LayoutStore, dialogs: Dialogs): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (dialogs.store.getState().current) return;
      const pane = shortcutPane(event);
      if (pane) {
        event.preventDefault();
        event.stopPropagation();
        layout.toggle(pane);
        // Hiding the pane that held the focus would leave it on <body>: move it to the next region.
        requestAnimationFrame(() => {
          const active = document.activeElement;
          if (!active || active === document.body || active.closest("[hidden]")) focusRegion(document, ["editor", "files", "side panel", "terminal"]);
        });
        return;
      }
      // Taken before Monaco and xterm see them (capture phase): Monaco's own Ctrl+M would toggle a
      // second, editor-only switch, and xterm would send both keys to the shell.
      if (isTabFocusToggle(event)) {
        event.preventDefault();
        event.stopPropagation();
        toggleTabFocusMode();
        return;
      }
      if (event.key === "F6" && !event.ctrlKey && !event.metaKey && !event.altKey) {
        event.preventDefault();
        event.stopPropagation();
        focusNextRegion(document, event.shiftKey ? -1 : 1, document.activeElement);
        return;
      }
      if (event.ctrlKey && !event.metaKey && !event.altKey && event.key === "`") {
        event.preventDefault();
        if (layout.getState().hidden.terminal) layout.toggle("terminal");
        requestAnimationFrame(() => document.querySelector<HTMLElement>(".terminal-host textarea")?.focus());
      }
    };
    window.addEventListener("keydown", onKeyDown, true);
    return () => window.removeEventListener("keydown", onKeyDown, true);
  }, [layout, dialogs]);
}
