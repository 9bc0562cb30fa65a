// The built-in preview: serves a folder of the workspace as a website from this page (through the
// service worker), front-end code compiled on the way out. docs/architecture.md "Preview".
export { PreviewHub, PREVIEW_PREFIX, type PreviewSession } from "./preview-hub";
export type { PreviewServer, PreviewResponse, PreviewServerOptions } from "./preview-server";
export type { PreviewFiles } from "./module-resolution";
export type { HotUpdate } from "./hot-update";
export { ProjectPostcss, type NodeProgramRunner, type PostcssOutcome, type PostcssStep } from "./postcss";
