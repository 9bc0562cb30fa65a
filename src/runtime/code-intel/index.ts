// The code service (diagnostics and code queries for the agent): picked by src/main.tsx only.
import type { WorkspaceFs } from "../types";
import { workerPort } from "./protocol";
import { WorkspaceCodeIntelligence } from "./workspace-code-intelligence";

export { CodeService, MAX_IMPORTERS_CHECKED, isCodeSource, type CodeServiceOptions, type TextValidator } from "./code-service";
export { inProcessPort, workerPort, serveCodeService, type CodeServicePort, type FileUpdate } from "./protocol";
export { WorkspaceCodeIntelligence, MAX_SERVICE_BYTES, MAX_SERVICE_FILES } from "./workspace-code-intelligence";
export type * from "./types";

/** The page's code service for one workspace: a module Web Worker (its own chunk), started on first use. */
export function createWorkerCodeIntelligence(fs: WorkspaceFs): WorkspaceCodeIntelligence {
  return new WorkspaceCodeIntelligence(fs, () => workerPort(new Worker(new URL("./worker.ts", import.meta.url), { type: "module", name: "webcode-code-service" })));
}
