// node in the browser runtime (docs/architecture.md "node in the browser runtime"): the shell
// command; the runtime itself runs in the isolated execution host's worker (worker.ts).
export { nodeCommand, snapshot } from "./node-command";
export { NODE_VERSION } from "./node-version";
