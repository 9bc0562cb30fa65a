// Workbench keyboard shortcuts (VS Code's): Ctrl/Cmd+B file tree, Ctrl/Cmd+J terminal,
// Ctrl/Cmd+Alt+B side panel, Ctrl+` focus the terminal. Editor shortcuts live in the editor panel.
import { useEffect } from "react";
import type { Dialogs } from "../common";
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
