// The workspace switcher in the top bar: pick, create, rename and delete workspaces. Each action
// is saved on its own; unsaved editor changes are settled before the workspace changes.
import { useStore } from "zustand";
import { errorMessage, revealInvisibleChars } from "../../base";
import { validateWorkspaceName } from "../../runtime";
import type { WorkspaceRecord } from "../../storage";
import { IconButton, type Dialogs, type Notifications } from "../common";
import type { WorkspaceController } from "./workspace-controller";

/** The runtime's name rules plus "already taken", checked as the user types. */
export function checkWorkspaceName(name: string, existing: readonly WorkspaceRecord[], except?: string): string | undefined {
  const problem = validateWorkspaceName(name);
  if (problem) return problem;
  const trimmed = name.trim();
  if (existing.some((w) => w.id !== except && w.name.trim().toLowerCase() === trimmed.toLowerCase())) {
    return `A workspace named "${trimmed}" already exists. Choose another name.`;
  }
  return undefined;
}

export interface WorkspaceSwitcherProps {
  controller: WorkspaceController;
  dialogs: Dialogs;
  notifications: Notifications;
  /** Settles unsaved changes before leaving the workspace; false = stay. */
  beforeLeave(): Promise<boolean>;
}

export function WorkspaceSwitcher({ controller, dialogs, notifications, beforeLeave }: WorkspaceSwitcherProps) {
  const workspaces = useStore(controller.store, (s) => s.workspaces);
  const current = useStore(controller.store, (s) => s.current?.workspace);
  const switching = useStore(controller.store, (s) => s.switching);

  const run = async (what: string, action: () => Promise<unknown>) => {
    try {
      await action();
    } catch (error) {
      notifications.notify("error", `${what} failed: ${errorMessage(error)}`);
    }
  };

  const switchTo = async (id: string) => {
    if (id === current?.id || !(await beforeLeave())) return;
    await run("Switching workspace", () => controller.switchTo(id));
  };

  const create = async () => {
    const name = await dialogs.prompt("New workspace", "Workspace name", {
      confirmLabel: "Create",
      validate: (value) => checkWorkspaceName(value, workspaces),
    });
    if (name === undefined || !(await beforeLeave())) return;
    await run("Creating the workspace", () => controller.create(name.trim()));
  };

  const rename = async () => {
    if (!current) return;
    const name = await dialogs.prompt("Rename workspace", "Workspace name", {
      initialValue: current.name,
      confirmLabel: "Rename",
      validate: (value) => checkWorkspaceName(value, workspaces, current.id),
    });
    if (name === undefined || name.trim() === current.name) return;
    await run("Renaming the workspace", () => controller.rename(current.id, name.trim()));
  };

  const remove = async () => {
    if (!current) return;
    const ok = await dialogs.confirm(
      "Delete workspace?",
      `This permanently deletes "${revealInvisibleChars(current.name)}" with all its files and chat sessions. This cannot be undone.`,
      "Delete workspace",
      { danger: true },
    );
    if (!ok) return;
    await run("Deleting the workspace", () => controller.remove(current.id));
  };

  return (
    <div className="workspace-switcher">
      <select
        aria-label="Workspace"
        className="select"
        value={current?.id ?? ""}
        disabled={switching && !current}
        onChange={(event) => void switchTo(event.target.value)}
      >
        {!current && <option value="">Opening…</option>}
        {workspaces.map((w) => (
          <option key={w.id} value={w.id}>
            {revealInvisibleChars(w.name)}
          </option>
        ))}
      </select>
      <IconButton icon="plus" label="New workspace" onClick={() => void create()} />
      <IconButton icon="rename" label="Rename workspace" disabled={!current} onClick={() => void rename()} />
      <IconButton icon="trash" label="Delete workspace" disabled={!current} onClick={() => void remove()} />
    </div>
  );
}
