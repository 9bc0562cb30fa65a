// The tab strip of open files: dirty markers, close buttons, middle-click close, arrow keys to move
// between tabs (a WAI-ARIA tablist with roving focus).
import { useRef, type KeyboardEvent } from "react";
import { basename, dirname } from "../../base";
import { Icon } from "../common";
import type { EditorTab } from "./editor-documents";

export interface EditorTabsProps {
  tabs: EditorTab[];
  active?: string;
  onSelect(path: string): void;
  onClose(path: string): void;
}

/** The label of a tab: the file name, plus its folder when two open files share a name. */
export function tabLabel(tab: EditorTab, tabs: EditorTab[]): string {
  const name = basename(tab.path);
  const clash = tabs.some((t) => t !== tab && basename(t.path) === name);
  return clash && dirname(tab.path) ? `${name} — ${dirname(tab.path)}` : name;
}

export function EditorTabs({ tabs, active, onSelect, onClose }: EditorTabsProps) {
  const list = useRef<HTMLDivElement>(null);
  const focusTab = (index: number) => {
    const tab = tabs[(index + tabs.length) % tabs.length];
    if (!tab) return;
    onSelect(tab.path);
    list.current?.querySelector<HTMLElement>(`[data-path="${CSS.escape(tab.path)}"]`)?.focus();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>, index: number, tab: EditorTab) => {
    if (event.key === "ArrowRight") focusTab(index + 1);
    else if (event.key === "ArrowLeft") focusTab(index - 1);
    else if (event.key === "Home") focusTab(0);
    else if (event.key === "End") focusTab(tabs.length - 1);
    else if (event.key === "Delete") onClose(tab.path);
    else return;
    event.preventDefault();
  };
  return (
    <div className="editor-tabs" role="tablist" aria-label="Open files" ref={list}>
      {tabs.map((tab, index) => {
        const selected = tab.path === active;
        const label = tabLabel(tab, tabs);
        return (
          // The close button sits beside the tab, not inside it: a tab's children are not exposed
          // to assistive technology. It is for the mouse only (aria-hidden, out of the Tab order): a
          // tablist may hold only tabs, and the keyboard closes a tab with Delete (aria-keyshortcuts).
          <div
            key={tab.path}
            className={`editor-tab ${selected ? "is-active" : ""} ${tab.dirty ? "is-dirty" : ""}`}
            role="presentation"
            onClick={() => onSelect(tab.path)}
            onMouseDown={(event) => {
              // Stop the browser's middle-click autoscroll; the click closes the tab instead.
              if (event.button === 1) event.preventDefault();
            }}
            onAuxClick={(event) => {
              if (event.button !== 1) return;
              event.preventDefault();
              onClose(tab.path);
            }}
          >
            <div
              className="editor-tab-main"
              role="tab"
              data-path={tab.path}
              aria-selected={selected}
              aria-label={`${label}${tab.dirty ? ", unsaved changes" : ""}${tab.deletedOnDisk ? ", deleted on disk" : ""}`}
              title={tab.path}
              aria-keyshortcuts="Delete"
              tabIndex={selected || (active === undefined && index === 0) ? 0 : -1}
              onKeyDown={(event) => onKeyDown(event, index, tab)}
            >
              <Icon name="file" size={14} />
              <span className={`editor-tab-label ${tab.deletedOnDisk ? "is-deleted" : ""}`}>{label}</span>
            </div>
            <button
              type="button"
              className="editor-tab-close"
              aria-label={`Close ${label}`}
              title="Close"
              tabIndex={-1}
              aria-hidden="true"
              onClick={(event) => {
                event.stopPropagation();
                onClose(tab.path);
              }}
            >
              <Icon name="close" size={14} />
            </button>
          </div>
        );
      })}
    </div>
  );
}
