// The file tree panel (an ARIA tree named "Files"): create, rename (F2), delete (Delete, with
// confirmation), move by drag and drop, a context menu (right click, Shift+F10, ContextMenu key) and
// keyboard navigation. It re-reads the workspace on every change notification, whoever made it.
import { useCallback, useEffect, useId, useMemo, useRef, useState, type DragEvent, type KeyboardEvent, type MouseEvent, type ReactNode } from "react";
import { useStore } from "zustand";
import "./file-tree.css";
import { basename, dirname, isInside, joinPath } from "../../base";
import type { WorkspaceFs } from "../../runtime";
import { Icon, IconButton, type Dialogs, type Notifications } from "../common";
import type { EditorDocuments } from "../editor";
import { ContextMenu, type MenuItem } from "./context-menu";
import { checkMove, checkNewName, checkRename } from "./file-names";
import { ancestors, buildTree, findNode, navigate, visibleRows, type TreeKey, type TreeNode, type TreeRow } from "./file-tree-model";
import { createFileTreeStore, type NameEditing } from "./file-tree-store";
import { NameInput } from "./name-input";

const DRAG_TYPE = "application/x-webcode-path";
const NAV_KEYS = new Set<string>(["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home", "End"]);
/** The tooltip of the tree's disabled actions in a read-only shared session. */
export const READ_ONLY_REASON = "Read-only shared session: press Continue in the top bar to make an editable copy.";

export interface FileTreeProps {
  files: WorkspaceFs;
  documents: EditorDocuments;
  dialogs: Dialogs;
  notifications: Notifications;
  workspaceName: string;
}

/** Initials for a collaborator's marker: "Ann Lee" -> "AL", "Guest 0042" -> "G0". */
function initials(name: string): string {
  return name
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => [...word][0]!.toUpperCase())
    .join("");
}

export function FileTree({ files, documents, dialogs, notifications, workspaceName }: FileTreeProps) {
  const [store] = useState(createFileTreeStore);
  const { expanded, focused, editing, menu, dropTarget } = useStore(store);
  const [nodes, setNodes] = useState<TreeNode[] | undefined>(undefined);
  const openTabs = useStore(documents.store, (s) => s.tabs);
  // Live collaboration: who else has which file open (empty without sync).
  const peers = useStore(documents.live, (s) => s.peers);
  const tree = useRef<HTMLDivElement>(null);
  const baseId = useId();
  const rowId = (path: string) => `${baseId}-${encodeURIComponent(path)}`;
  // A read-only shared session: every action that changes files is disabled, saying why.
  const readOnly = files.readOnly === true;

  // Load the tree and follow every change to the workspace (editor, terminal, agent, import).
  const reload = useRef<() => Promise<void>>(async () => {});
  useEffect(() => {
    let live = true;
    let request = 0;
    let scheduled: ReturnType<typeof setTimeout> | undefined;
    const load = async () => {
      const mine = ++request;
      try {
        const all = await files.listAll();
        if (live && mine === request) setNodes(buildTree(all));
      } catch (error) {
        if (live) notifications.error(error, "Could not list the workspace files");
      }
    };
    reload.current = load;
    void load();
    const subscription = files.onDidChange(() => {
      clearTimeout(scheduled);
      scheduled = setTimeout(() => void load(), 0);
    });
    return () => {
      live = false;
      clearTimeout(scheduled);
      subscription.dispose();
    };
  }, [files, notifications]);

  // Reveal the active editor file.
  useEffect(() => {
    let last = documents.active;
    const unsubscribe = documents.store.subscribe((state) => {
      if (state.active === last) return;
      last = state.active;
      if (state.active === undefined || store.getState().editing) return;
      for (const folder of ancestors(state.active)) store.expand(folder);
      store.focus(state.active);
    });
    return unsubscribe;
  }, [documents, store]);

  const list = useMemo(() => nodes ?? [], [nodes]);
  const rows = useMemo(() => visibleRows(list, expanded), [list, expanded]);
  const focusedRow = rows.find((r) => r.node.path === focused);

  useEffect(() => {
    if (focused !== undefined) document.getElementById(`${baseId}-${encodeURIComponent(focused)}`)?.scrollIntoView({ block: "nearest" });
  }, [focused, baseId]);

  const focusTree = () => tree.current?.focus({ preventScroll: true });

  const folderFor = useCallback(
    (path: string | undefined): string => {
      if (path === undefined) return "";
      const node = findNode(list, path);
      return node?.kind === "dir" ? path : dirname(path);
    },
    [list],
  );

  const startCreate = (mode: "new-file" | "new-folder", at: string | undefined = focused) => {
    if (readOnly) return;
    const folder = folderFor(at);
    if (folder !== "") for (const dir of [...ancestors(folder), folder]) store.expand(dir);
    store.setState({ editing: { mode, folder }, menu: undefined });
  };

  const startRename = (path: string | undefined = focused) => {
    if (path === undefined || readOnly) return;
    store.setState({ editing: { mode: "rename", path }, menu: undefined });
  };

  const stopEditing = () => {
    store.setState({ editing: undefined });
    focusTree();
  };

  const commitName = async (edit: NameEditing, name: string) => {
    store.setState({ editing: undefined });
    focusTree();
    try {
      if (edit.mode === "rename") {
        const to = joinPath(dirname(edit.path), name);
        await documents.move(edit.path, to);
        const moved = new Set([...store.getState().expanded].map((p) => (isInside(p, edit.path) ? to + p.slice(edit.path.length) : p)));
        store.setState({ expanded: moved, focused: to });
        return;
      }
      // A relative path ("src/lib/a.ts") creates the folders on the way; show where it went.
      const path = joinPath(edit.folder, name);
      for (const dir of ancestors(path)) store.expand(dir);
      if (edit.mode === "new-folder") {
        await files.mkdir(path, { source: "user" });
        store.focus(path);
      } else {
        await files.writeFile(path, "", { source: "user" });
        store.focus(path);
        await documents.open(path, { focus: true });
      }
    } catch (error) {
      notifications.error(error, edit.mode === "rename" ? `Could not rename ${edit.path}` : `Could not create ${name}`);
    }
  };

  const remove = async (path: string | undefined = focused) => {
    if (path === undefined || readOnly) return;
    const node = findNode(list, path);
    if (!node) return;
    store.setState({ menu: undefined });
    const openTabs = documents.tabs.filter((t) => isInside(t.path, path));
    const unsaved = openTabs.filter((t) => t.dirty).length;
    const what = node.kind === "dir" ? `the folder "${path}" and everything in it` : `"${path}"`;
    const tabsNote =
      unsaved > 0
        ? ` ${unsaved === 1 ? "An open file has" : `${unsaved} open files have`} unsaved changes that will be lost.`
        : openTabs.length > 0
          ? " Its open tabs will close."
          : "";
    const ok = await dialogs.confirm(
      node.kind === "dir" ? "Delete folder?" : "Delete file?",
      `This permanently deletes ${what}.${tabsNote}`,
      "Delete",
      { danger: true },
    );
    if (!ok) return;
    const index = rows.findIndex((r) => r.node.path === path);
    const next = rows.slice(index + 1).find((r) => !isInside(r.node.path, path)) ?? rows[index - 1];
    documents.closeUnder(path);
    try {
      await files.remove(path, { source: "user" });
      store.focus(next?.node.path);
    } catch (error) {
      notifications.error(error, `Could not delete ${path}`);
    }
    focusTree();
  };

  const moveInto = async (from: string, folder: string) => {
    if (readOnly) return;
    const problem = checkMove(list, from, folder);
    if (problem) {
      notifications.notify("error", problem);
      return;
    }
    if (dirname(from) === folder) return;
    const to = joinPath(folder, basename(from));
    try {
      await documents.move(from, to);
      if (folder !== "") store.expand(folder);
      store.focus(to);
    } catch (error) {
      notifications.error(error, `Could not move ${from}`);
    }
  };

  const activate = (row: TreeRow, focusEditor: boolean) => {
    store.focus(row.node.path);
    if (row.node.kind === "dir") store.toggle(row.node.path);
    else void documents.open(row.node.path, { focus: focusEditor });
  };

  const openMenu = (x: number, y: number, path: string | undefined) => {
    if (path !== undefined) store.focus(path);
    store.setState({ menu: { x, y, path } });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (editing) return;
    if (NAV_KEYS.has(event.key)) {
      event.preventDefault();
      const step = navigate(rows, focused, event.key as TreeKey);
      if (step.expand !== undefined) store.expand(step.expand);
      if (step.collapse !== undefined) store.collapse(step.collapse);
      if (step.focus !== undefined) store.focus(step.focus);
      return;
    }
    if ((event.key === "F10" && event.shiftKey) || event.key === "ContextMenu") {
      event.preventDefault();
      const rect = (focused !== undefined ? document.getElementById(rowId(focused)) : tree.current)?.getBoundingClientRect();
      openMenu(rect ? rect.left + 24 : 0, rect ? rect.bottom : 0, focusedRow?.node.path);
      return;
    }
    if (!focusedRow) return;
    if (event.key === "Enter") activate(focusedRow, true);
    else if (event.key === " ") activate(focusedRow, false);
    else if (event.key === "F2") startRename(focusedRow.node.path);
    else if (event.key === "Delete" || (event.key === "Backspace" && event.metaKey)) void remove(focusedRow.node.path);
    else return;
    event.preventDefault();
  };

  const onDragOver = (event: DragEvent, folder: string) => {
    if (!event.dataTransfer.types.includes(DRAG_TYPE)) return;
    event.preventDefault();
    event.stopPropagation();
    event.dataTransfer.dropEffect = "move";
    if (store.getState().dropTarget !== folder) store.setState({ dropTarget: folder });
  };
  const onDrop = (event: DragEvent, folder: string) => {
    const from = event.dataTransfer.getData(DRAG_TYPE);
    store.setState({ dropTarget: undefined });
    if (!from) return;
    event.preventDefault();
    event.stopPropagation();
    void moveInto(from, folder);
  };

  const menuItems = (path: string | undefined): MenuItem[] => {
    const node = path !== undefined ? findNode(list, path) : undefined;
    const items: MenuItem[] = [];
    if (node?.kind === "file") items.push({ id: "open", label: "Open", run: () => void documents.open(node.path, { focus: true }) });
    const mutating: MenuItem[] = [
      { id: "new-file", label: "New file", run: () => startCreate("new-file", path) },
      { id: "new-folder", label: "New folder", run: () => startCreate("new-folder", path) },
    ];
    if (node) {
      mutating.push(
        { id: "rename", label: "Rename", shortcut: "F2", run: () => startRename(node.path) },
        { id: "delete", label: "Delete", shortcut: "Delete", danger: true, run: () => void remove(node.path) },
      );
    }
    items.push(...(readOnly ? mutating.map((item) => ({ ...item, disabled: true, title: READ_ONLY_REASON })) : mutating));
    return items;
  };

  const validateFor = (edit: NameEditing) => (name: string) =>
    edit.mode === "rename" ? checkRename(list, edit.path, name) : checkNewName(list, edit.folder, name);

  const creationRow = (level: number) =>
    editing && editing.mode !== "rename" ? (
      <div className="tree-row tree-row-editing" style={{ paddingLeft: indent(level) }} key="__new">
        <span className="tree-twisty" />
        <Icon name={editing.mode === "new-folder" ? "folder" : "file"} />
        <NameInput
          initialValue=""
          validate={validateFor(editing)}
          onCommit={(name) => void commitName(editing, name)}
          onCancel={stopEditing}
          onRejected={(value, problem) => notifications.notify("error", `"${value}" was not created: ${problem}`)}
        />
      </div>
    ) : null;

  const rendered: ReactNode[] = [];
  if (editing && editing.mode !== "rename" && editing.folder === "") rendered.push(creationRow(1));
  for (const row of rows) {
    const { node } = row;
    const isRenaming = editing?.mode === "rename" && editing.path === node.path;
    const isFocused = node.path === focused;
    const isOpen = openTabs.some((t) => t.path === node.path);
    // Text not in storage yet (not saved, or a save the browser refused): marked until it is stored.
    const isUnsaved = node.kind === "file" && openTabs.some((t) => t.path === node.path && t.dirty);
    const viewers = node.kind === "file" ? peers.filter((p) => p.openPath === node.path) : [];
    rendered.push(
      <div
        key={node.path}
        id={rowId(node.path)}
        role="treeitem"
        aria-level={row.level}
        aria-posinset={row.position}
        aria-setsize={row.siblings}
        aria-expanded={node.kind === "dir" ? row.expanded : undefined}
        aria-selected={isFocused}
        className={[
          "tree-row",
          isFocused ? "is-focused" : "",
          dropTarget !== undefined && dropTarget !== "" && isInside(node.path, dropTarget) ? "is-drop-target" : "",
          isOpen ? "is-open" : "",
          isUnsaved ? "is-unsaved" : "",
        ].join(" ")}
        // The markers of who else has the file open do not change the item's name; they are said after it.
        aria-label={viewers.length > 0 && !isRenaming ? node.name : undefined}
        aria-description={[isUnsaved ? "unsaved changes" : "", ...viewers.map((p) => `open by ${p.name}`)].filter(Boolean).join(", ") || undefined}
        style={{ paddingLeft: indent(row.level) }}
        draggable={!isRenaming && !readOnly}
        title={node.path}
        onClick={(event: MouseEvent) => {
          event.stopPropagation();
          focusTree();
          activate(row, false);
        }}
        onDoubleClick={() => node.kind === "file" && void documents.open(node.path, { focus: true })}
        onContextMenu={(event) => {
          event.preventDefault();
          event.stopPropagation();
          openMenu(event.clientX, event.clientY, node.path);
        }}
        onDragStart={(event) => {
          event.dataTransfer.setData(DRAG_TYPE, node.path);
          event.dataTransfer.setData("text/plain", node.path);
          event.dataTransfer.effectAllowed = "move";
        }}
        onDragEnd={() => store.setState({ dropTarget: undefined })}
        onDragOver={(event) => onDragOver(event, node.kind === "dir" ? node.path : (row.parent ?? ""))}
        onDrop={(event) => onDrop(event, node.kind === "dir" ? node.path : (row.parent ?? ""))}
      >
        <span className="tree-twisty">
          {node.kind === "dir" && <Icon name={row.expanded ? "chevron-down" : "chevron-right"} size={14} />}
        </span>
        <Icon name={node.kind === "dir" ? (row.expanded ? "folder-open" : "folder") : "file"} />
        {isRenaming ? (
          <NameInput
            initialValue={node.name}
            validate={validateFor(editing)}
            onCommit={(name) => void commitName(editing, name)}
            onCancel={stopEditing}
            onRejected={(value, problem) => notifications.notify("error", `"${node.name}" was not renamed to "${value}": ${problem}`)}
          />
        ) : (
          <span className="tree-label">{node.name}</span>
        )}
        {isUnsaved && (
          <span className="tree-unsaved" aria-hidden="true" title="Unsaved changes: not stored yet">
            ●
          </span>
        )}
        {viewers.length > 0 && (
          <span className="tree-viewers">
            {viewers.map((peer) => (
              <span key={peer.id} className="tree-viewer" role="img" aria-label={`Open by ${peer.name}`} title={`Open by ${peer.name}`} style={{ background: peer.color }}>
                {initials(peer.name)}
              </span>
            ))}
          </span>
        )}
      </div>,
    );
    if (editing && editing.mode !== "rename" && node.kind === "dir" && editing.folder === node.path && row.expanded) {
      rendered.push(creationRow(row.level + 1));
    }
  }

  return (
    <section className="files-panel" aria-label="Explorer">
      <header className="panel-header">
        <h2 className="panel-title" title={workspaceName}>
          {workspaceName}
        </h2>
        <div className="panel-actions">
          <IconButton icon="new-file" label="New file" disabled={readOnly} title={readOnly ? READ_ONLY_REASON : undefined} onClick={() => startCreate("new-file")} />
          <IconButton icon="new-folder" label="New folder" disabled={readOnly} title={readOnly ? READ_ONLY_REASON : undefined} onClick={() => startCreate("new-folder")} />
          <IconButton icon="refresh" label="Refresh" onClick={() => void reload.current()} />
          <IconButton icon="collapse" label="Collapse all" onClick={() => store.collapseAll()} />
        </div>
      </header>
      <div
        ref={tree}
        className={`tree ${dropTarget === "" ? "is-drop-target" : ""}`}
        role="tree"
        aria-label="Files"
        tabIndex={0}
        aria-activedescendant={focusedRow ? rowId(focusedRow.node.path) : undefined}
        onKeyDown={onKeyDown}
        onFocus={(event) => {
          if (event.target === event.currentTarget && focused === undefined && rows[0]) store.focus(rows[0].node.path);
        }}
        onClick={() => store.focus(undefined)}
        onContextMenu={(event) => {
          event.preventDefault();
          openMenu(event.clientX, event.clientY, undefined);
        }}
        onDragOver={(event) => onDragOver(event, "")}
        onDragLeave={(event) => {
          if (!event.currentTarget.contains(event.relatedTarget as Node | null)) store.setState({ dropTarget: undefined });
        }}
        onDrop={(event) => onDrop(event, "")}
      >
        {rendered}
        {nodes !== undefined && rows.length === 0 && !editing && (
          <p className="tree-empty">This workspace is empty. Create a file to start.</p>
        )}
        {nodes === undefined && <p className="tree-empty">Loading files…</p>}
      </div>
      {menu && (
        <ContextMenu
          x={menu.x}
          y={menu.y}
          label={menu.path !== undefined ? `Actions for ${basename(menu.path)}` : "File actions"}
          items={menuItems(menu.path)}
          onClose={() => {
            store.setState({ menu: undefined });
            focusTree();
          }}
        />
      )}
    </section>
  );
}

function indent(level: number): number {
  return 8 + (level - 1) * 12;
}
