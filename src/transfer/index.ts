// The transfer layer's public surface: zip import and export, folder import, the share-link codec.
export * from "./zip-limits";
export type { ImportEntry, ImportOptions, ImportProgress, ImportResult, ProgressListener } from "./import-entries";
export { readZip } from "./zip-import";
export {
  importAsNewWorkspace,
  importIntoWorkspace,
  type NewWorkspaceOptions,
  type WorkspaceImportOptions,
  type WorkspaceImportResult,
} from "./import-write";
export { exportWorkspaceZip, zipEntries, type ZipExportOptions } from "./zip-export";
export { unzipInWorker, handleUnzipRequest, type UnzipRequest, type UnzipResponse, type WorkerLike } from "./zip-worker";
export {
  readDirectoryHandle,
  readDroppedEntries,
  readFileList,
  type DirectoryHandleLike,
  type DroppedEntryLike,
  type FileHandleLike,
  type FileLike,
} from "./folder-import";
