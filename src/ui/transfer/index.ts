// Import and export in the UI: top-bar contributions (Import zip, Import folder, Export zip), the
// drop zone over the file tree, `#import=<url>` on load, and the dialogs' building blocks.
export { createTransferUi, importContext, browserAddressBar, IMPORT_TOP_BAR_ID, type AddressBar, type TransferUi, type TransferUiOptions } from "./transfer-ui";
export { ImportFlow, tellUser, describeProgress, describeSkipped, progressPercent, type ConflictChoice, type ImportContext, type ImportState, type ImportTarget } from "./import-flow";
export { ImportDialog } from "./import-dialog";
export { ExportDialog, exportFileName, type ExportDialogProps } from "./export-dialog";
export { DropZone, classifyDrop, type DroppedImport, type DropDataLike } from "./drop-zone";
export {
  directoryHandleSource,
  droppedEntriesSource,
  droppedFilesSource,
  fileListSource,
  linkSource,
  nameFromUrl,
  zipFileSource,
  type ImportSource,
  type ReadPhase,
  type Unzip,
} from "./import-sources";
export { Modal, type ModalProps } from "./modal";
export { downloadBytes, safeFileName } from "./download";
export { settleUnsavedChanges } from "./leave-workspace";
export { IsolatedMessage, ShownName } from "./shown-name";
