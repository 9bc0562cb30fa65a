// The preview panel: dev servers from the runtime, or the built-in preview, in a frame; and the
// page's service worker (offline cache, preview requests, update notice).
export { PREVIEW_ALLOW, PreviewPanel, isBuiltinPreview, previewSandbox, safePreviewUrl, type PreviewPanelProps } from "./preview-panel";
export { registerAppServiceWorker, type AppServiceWorker, type ServiceWorkerState } from "./service-worker";
export { updateTopBarItem } from "./update-notice";
export { sitePath } from "./builtin-preview-frame";
