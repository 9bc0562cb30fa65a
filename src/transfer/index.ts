// The transfer layer's public surface: zip import and export, folder import, the share-link codec.
export * from "./zip-limits";
export type { ImportEntry, ImportOptions, ImportProgress, ImportResult, ProgressListener } from "./import-entries";
export { readZip } from "./zip-import";
