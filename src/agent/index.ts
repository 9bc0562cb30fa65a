// The agent core's public surface.
export * from "./tools/tool";
