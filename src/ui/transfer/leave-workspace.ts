// Before an import or a share switches to another workspace: unsaved editor changes are saved,
// dropped, or the switch is called off — the same question the workspace switcher asks.
import type { WorkbenchServices } from "../app";

export async function settleUnsavedChanges(services: Pick<WorkbenchServices, "documents" | "dialogs">): Promise<boolean> {
  const dirty = services.documents.tabs.filter((tab) => tab.dirty);
  if (dirty.length === 0) return true;
  const answer = await services.dialogs.ask({
    kind: "choice",
    title: "Save changes?",
    message: `${dirty.length === 1 ? `"${dirty[0]!.path}" has` : `${dirty.length} files have`} unsaved changes. Save before leaving this workspace?`,
    buttons: [
      { id: "cancel", label: "Stay here" },
      { id: "discard", label: "Don't save" },
      { id: "save", label: "Save all", primary: true },
    ],
    cancelId: "cancel",
  });
  if (answer === "save") return services.documents.saveAll();
  return answer === "discard";
}
