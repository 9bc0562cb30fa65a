// View state of one file tree: expanded folders, focus, the inline name editor, the context menu
// and the current drop target. Workspace data itself comes from WorkspaceFiles events.
import { createStore, type StoreApi } from "zustand/vanilla";

export type NameEditing =
  | { mode: "new-file" | "new-folder"; folder: string }
  | { mode: "rename"; path: string };

export interface FileTreeViewState {
  expanded: ReadonlySet<string>;
  focused?: string;
  editing?: NameEditing;
  menu?: { x: number; y: number; path?: string };
  /** Folder a dragged entry would be dropped into ("" = root). */
  dropTarget?: string;
}

export interface FileTreeStore extends StoreApi<FileTreeViewState> {
  expand(path: string): void;
  collapse(path: string): void;
  toggle(path: string): void;
  collapseAll(): void;
  focus(path: string | undefined): void;
}

export function createFileTreeStore(): FileTreeStore {
  const store = createStore<FileTreeViewState>(() => ({ expanded: new Set() }));
  const setExpanded = (update: (set: Set<string>) => void) => {
    const next = new Set(store.getState().expanded);
    update(next);
    store.setState({ expanded: next });
  };
  return Object.assign(store, {
    expand: (path: string) => setExpanded((s) => s.add(path)),
    collapse: (path: string) => setExpanded((s) => s.delete(path)),
    toggle: (path: string) => setExpanded((s) => (s.has(path) ? s.delete(path) : s.add(path))),
    collapseAll: () => store.setState({ expanded: new Set() }),
    focus: (path: string | undefined) => store.setState({ focused: path }),
  });
}
