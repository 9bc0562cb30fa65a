// The editor panel: open documents (tabs, saving, changes underneath), Monaco (lazy) and quick open.
export { EditorDocuments, type EditorTab, type EditorDocumentsState, type UnsavedChoice, type EditorDocumentsOptions, type EditorSelection, type RevealRequest } from "./editor-documents";
export { EditorPanel, EDITOR_READY_MARK, MOD_KEY_LABEL } from "./editor-panel";
export { EditorStatusItems } from "./editor-status-bar";
export { loadMonacoBuffers, preloadMonaco } from "./monaco-loader";
export type { TextBuffer, BufferFactory } from "./text-buffer";
export { languageForPath } from "./languages";
export { filterPaths, scorePath, type QuickOpenMatch } from "./quick-open-filter";
export { loadMonaco, type MonacoModule } from "./monaco-loader";
