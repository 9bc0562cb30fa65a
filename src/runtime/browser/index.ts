// The browser runtime (just-bash over the workspace file service). Only src/main.tsx imports this;
// everything else depends on the Runtime interface.
import type { Runtime } from "../types";
import type { WorkspaceFiles } from "../workspace-files";
import { BrowserRuntime, type BrowserRuntimeOptions } from "./browser-runtime";

export type { BrowserRuntimeOptions };
export { BrowserRuntime };
export { missingCommandMessage, WEBCONTAINER_COMMANDS } from "./missing-commands";

export function createBrowserRuntime(files: WorkspaceFiles, options?: BrowserRuntimeOptions): Runtime {
  return new BrowserRuntime(files, options);
}
export { matchDevServerCommand, startDevServerPreview, devServerCommands, type DevServerRequest, type PreviewStarter } from "./dev-server-commands";
