// The real code service for Node tests and the benchmark: what the page's worker runs (Monaco's
// TypeScript and validators), in this thread.
import { WorkspaceCodeIntelligence, inProcessPort, type CodeService } from "../../src/runtime/code-intel";
import { createMonacoCodeService } from "../../src/runtime/code-intel/monaco-service";
import type { WorkspaceFs } from "../../src/runtime";

export { createMonacoCodeService };

/** The workspace-side service the page uses, with the code service in this thread instead of a worker. */
export function inProcessCodeIntelligence(fs: WorkspaceFs, service: CodeService = createMonacoCodeService()): WorkspaceCodeIntelligence {
  return new WorkspaceCodeIntelligence(fs, () => inProcessPort(service));
}
