// The transfer layer's public surface: zip import and export, folder import, the share-link codec.
export * from "./zip-limits";
export type { ImportEntry, ImportOptions, ImportProgress, ImportResult, ProgressListener } from "./import-entries";
export { checkZip, readZip } from "./zip-import";
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
export {
  findSecrets,
  isEnvFile,
  redactSecrets,
  scanForSecrets,
  scanFilesForSecrets,
  MIN_KNOWN_SECRET_CHARS,
  type ScannedFile,
  type SecretFinding,
  type SecretScanOptions,
  type SecretKind,
  type ShareSource,
} from "./secret-scan";
export {
  OMIT_REASONS,
  SHARE_FORMAT,
  SHARE_LINK_CAP,
  SHARE_MAX_INFLATED_BYTES,
  SHARE_MAX_MESSAGES,
  SHARE_MAX_PARTS,
  SHARE_MAX_PARTS_PER_MESSAGE,
  SHARE_TOOL_OUTPUT_CHARS,
  SHARE_VERSION,
  type OmitReason,
  type OmittedFile,
  type ShareEnvelope,
  type ShareFile,
  type ShareMessage,
  type SharePart,
} from "./share-envelope";
export {
  decodeShareFile,
  decodeShareLink,
  encodeShareFile,
  encodeShareLink,
  findShareFragment,
  isShareFile,
  type ShareEncodeOptions,
  type ShareFileResult,
  type ShareLinkResult,
} from "./share-codec";
export {
  ShareError,
  continueSharedSession,
  openShare,
  restoreShareEnvelope,
  shareToRecords,
  type OpenedShare,
  type RestoredShare,
  type ShareErrorCode,
  type ShareRecords,
} from "./share-restore";
export { checkImportUrl, fetchZip, findGitHubSpec, findImportUrl, withoutTransferFragment, type FetchZipOptions } from "./zip-fetch";
export { findTransferFragment, fragmentParams, type TransferFragment } from "./transfer-fragment";
export { localAddressKind, localAddressWarning, type LocalAddressKind } from "./import-host";
export { decodeShareInWorker, handleShareDecodeRequest, type ShareDecodeRequest, type ShareDecodeResponse } from "./share-worker";
export * from "./github";
