// node:https in the browser runtime: loads; serving and requesting throw the one line naming
// WebContainer. Replaced by the servers of issue 29 (one factory per module).
import { unsupportedModule } from "../unsupported";

export function createHttps(): Record<string, unknown> {
  return unsupportedModule("https", { functions: ["createServer", "request", "get"], classes: ["Agent", "Server"] }, { globalAgent: {} });
}
