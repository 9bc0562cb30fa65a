// The preview panel: dev servers from the runtime in a frame.
export { PREVIEW_ALLOW, PreviewPanel, previewSandbox, safePreviewUrl, type PreviewPanelProps } from "./preview-panel";
