// The providers layer's public surface.
export * from "./types";
