// The `node` command of the browser runtime's shell: hands the workspace's files, the command line,
// environment, working folder and piped input to the isolated execution host, and replays the
// program's file changes through the shell's file system (so the workspace file service, the tree,
// open editors and IndexedDB see them, attributed to whoever ran the command).
import { defineCommand, type CustomCommand } from "just-bash";
import { applyFsOp, type RunMessage, type SandboxHost } from "../sandbox";
import type { WorkspaceFiles } from "../workspace-files";

/** Where the workspace is mounted in the shell (bash-host.ts WORKSPACE_MOUNT). */
const MOUNT = "/workspace";

export function nodeCommand(host: SandboxHost, files: WorkspaceFiles): CustomCommand {
  return defineCommand("node", async (args, ctx) => {
    const message: RunMessage = {
      type: "run",
      ...snapshot(files),
      args,
      env: ctx.exportedEnv ?? Object.fromEntries(ctx.env),
      cwd: ctx.cwd,
      stdin: pipedInput(ctx.stdin as unknown as string),
    };
    let stdout = "";
    let stderr = "";
    const result = await host.run(message, {
      signal: ctx.signal,
      onStdout: (text) => (stdout += text),
      onStderr: (text) => (stderr += text),
      onFsOp: (op) => applyFsOp(ctx.fs, op),
    });
    if (result.message) stderr += `${stderr === "" || stderr.endsWith("\n") ? "" : "\n"}${result.message}\n`;
    return { stdout, stderr, exitCode: result.exitCode };
  });
}

/** just-bash hands piped input as a latin1 string of bytes ("" when nothing is piped). */
function pipedInput(bytes: string): Uint8Array | null {
  if (bytes === "") return null;
  const out = new Uint8Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) out[i] = bytes.charCodeAt(i);
  return out;
}

/** The workspace as the program sees it: every file and folder under /workspace, plus /tmp. */
export function snapshot(files: WorkspaceFiles): Pick<RunMessage, "files" | "dirs"> {
  const out: RunMessage["files"] = [];
  for (const [path, data] of files.entries()) out.push([`${MOUNT}/${path}`, data]);
  const dirs = [MOUNT, "/tmp"];
  for (const path of files.snapshotPaths()) if (files.statSync(path)?.kind === "dir") dirs.push(`${MOUNT}/${path}`);
  return { files: out, dirs };
}
