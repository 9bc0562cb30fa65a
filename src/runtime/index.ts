// The runtime layer's public surface: the Runtime interface and the workspace file service.
export * from "./types";
