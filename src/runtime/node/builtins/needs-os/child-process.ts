// node:child_process in the browser runtime: loads; starting a process throws the one line naming
// WebContainer. Replaced by issue 29's child processes (one factory per module).
import { unsupportedModule } from "../unsupported";

export function createChildProcess(): Record<string, unknown> {
  return unsupportedModule("child_process", { functions: ["exec", "execFile", "execFileSync", "execSync", "fork", "spawn", "spawnSync"], classes: ["ChildProcess"] });
}
