// The Storage section of Settings: what the browser allows and whether it keeps the data, storage
// used per workspace and for sessions and snapshots, with export and delete, for the open workbench.
import { useMemo } from "react";
import type { WorkbenchServices } from "../app/workbench-context";
import { StorageHealth } from "./storage-health";
import { storageActions } from "./storage-actions";
import { StorageUsageView } from "./storage-usage-view";
import { BrowserQuota } from "./browser-quota";

/** The actions of the storage view for an open workbench (the open workspace exports with its unsaved tabs). */
export function workbenchStorageActions(services: WorkbenchServices) {
  return storageActions({
    storage: services.storage,
    dialogs: services.dialogs,
    health: services.storageHealth ?? new StorageHealth(),
    ...(services.workspace && {
      current: {
        workspaceId: services.workspace.id,
        files: services.files,
        unsavedText: () => {
          const texts = new Map<string, string>();
          for (const tab of services.documents.tabs) {
            const text = tab.dirty ? services.documents.buffer(tab.path)?.getValue() : undefined;
            if (text !== undefined) texts.set(tab.path, text);
          }
          return texts;
        },
      },
    }),
    removeWorkspace: (id) => services.workspaces.remove(id),
  });
}

export function StorageSection({ services }: { services: WorkbenchServices }) {
  return (
    <section className="settings-section" aria-labelledby="settings-storage">
      <h3 id="settings-storage">Storage</h3>
      <BrowserQuota manager={typeof navigator !== "undefined" ? navigator.storage : undefined} />
      <StorageUsageView actions={useMemo(() => workbenchStorageActions(services), [services])} />
    </section>
  );
}
