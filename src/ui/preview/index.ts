// The preview panel: dev servers from the runtime in a frame.
export { PreviewPanel, safePreviewUrl, type PreviewPanelProps } from "./preview-panel";
