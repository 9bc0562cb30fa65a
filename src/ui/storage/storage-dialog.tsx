// The "Free up storage" dialog the banner opens: the storage view in a modal.
import { Modal } from "../transfer";
import { StorageUsageView, type StorageActions } from "./storage-usage-view";

export function StorageDialog({ actions, onClose }: { actions: StorageActions; onClose(): void }) {
  return (
    <Modal label="Free up storage" onClose={onClose} className="storage-dialog">
      <p>
        Sizes are what each workspace keeps in this browser. Export a workspace as a zip before you delete it; deleting
        sessions or snapshots keeps its files.
      </p>
      <StorageUsageView actions={actions} />
      <div className="modal-buttons">
        <button type="button" className="button" onClick={onClose}>
          Close
        </button>
      </div>
    </Modal>
  );
}
