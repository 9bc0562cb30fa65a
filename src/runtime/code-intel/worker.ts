// The code service's Web Worker: a lazy chunk of its own (Vite bundles workers separately), started
// on the agent's first edit or code query, never on page load.
import { createMonacoCodeService } from "./monaco-service";
import { serveCodeService, type WorkerScope } from "./protocol";

serveCodeService(self as unknown as WorkerScope, createMonacoCodeService());
