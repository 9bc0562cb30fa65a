// What panels (built-in and contributed) can reach while a workspace is open.
import { createContext, useContext } from "react";
import type { Storage, WorkspaceRecord } from "../../storage";
import type { Dialogs, Notifications } from "../common";
import type { EditorDocuments } from "../editor";
import type { StorageHealth } from "../storage";
import type { LayoutStore } from "./layout-store";
import type { WorkspaceFiles } from "./services";
import type { RuntimeStatus, WorkspaceController } from "./workspace-controller";

export interface WorkbenchServices {
  storage: Storage;
  notifications: Notifications;
  dialogs: Dialogs;
  layout: LayoutStore;
  workspaces: WorkspaceController;
  /** The open workspace and its file service. */
  workspace: WorkspaceRecord;
  files: WorkspaceFiles;
  /** The runtime (starting, ready with an optional fallback reason, or failed). */
  runtime: RuntimeStatus;
  /** Open files of the editor: `documents.open(path)` shows a file. */
  documents: EditorDocuments;
  /** Whether the browser accepts data; report refused writes here to show the storage banner. */
  storageHealth?: StorageHealth;
  /** Brings a right-panel tab (by contribution id) to the front. */
  showPanel(id: string): void;
}

export const WorkbenchContext = createContext<WorkbenchServices | undefined>(undefined);

export function useWorkbench(): WorkbenchServices {
  const services = useContext(WorkbenchContext);
  if (!services) throw new Error("useWorkbench() is only available inside an open workspace.");
  return services;
}
