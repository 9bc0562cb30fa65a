// The isolated execution host (docs/architecture.md "Isolated execution host"): page side.
export { SandboxHost, IPC_CHANNEL_ENV, EXIT_CODES, interruptSignal, signalExitCode, OOM_MESSAGE, SANDBOX_DID_NOT_START, START_TIMEOUT_MS } from "./sandbox-host";
export type { ProgramInput, SandboxEndpoint, SandboxEndpointFactory, SandboxRunOptions, SandboxRunResult, SandboxEnd } from "./sandbox-host";
export { iframeEndpointFactory } from "./iframe-endpoint";
export type { IframeEndpointOptions } from "./iframe-endpoint";
export type { ChildResult, FileData, FsOp, HostMessage, RunMessage, SandboxEvent, SpawnRequest, StdinMessage } from "./protocol";
export { applyFsOp, type ReplayFs } from "./apply-fs-op";
export { LocalServers, ConnectionRefusedError, isLocalUrl, type LocalHandler } from "./local-servers";
