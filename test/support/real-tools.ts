// Runs one command in this machine's Node and in the browser runtime's node (in-process), over the
// same files, for the real-tools differential tests: stdout, stderr, the exit code and the files the
// run left in the workspace (outside node_modules), with the real run's folder read as ours.
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { WorkspaceFiles } from "../../src/runtime";
import { createBrowserRuntime } from "../../src/runtime/browser";
import { SandboxHost, type FsOp } from "../../src/runtime/sandbox";
import { openStorage } from "../../src/storage";
import { inProcessNodeEndpoint } from "./in-process-endpoint";
import { runNodeInProcess } from "./run-node";

export interface Outcome {
  stdout: string;
  stderr: string;
  exitCode: number | null;
  /** The workspace's files outside node_modules after the run. */
  files: Record<string, string>;
}

export const WORKSPACE = "/workspace";
const scratch: string[] = [];

/** Removes the real runs' folders (call from afterAll). */
export function removeRealRunFolders(): void {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
}

const own = (files: Record<string, string>) => Object.fromEntries(Object.entries(files).filter(([file]) => !file.startsWith("node_modules/")));

/** The workspace after our run: the files it started with, changed by the run's file operations. */
function after(files: Record<string, string>, ops: FsOp[]): Record<string, string> {
  const state = new Map(Object.entries(files).map(([file, text]) => [`${WORKSPACE}/${file}`, text]));
  for (const op of ops) {
    if (op.kind === "write") state.set(op.path, typeof op.data === "string" ? op.data : new TextDecoder().decode(op.data as Uint8Array));
    else if (op.kind === "remove") {
      for (const key of [...state.keys()]) if (key === op.path || key.startsWith(`${op.path}/`)) state.delete(key);
    } else if (op.kind === "rename") {
      for (const [key, text] of [...state]) {
        if (key === op.from || key.startsWith(`${op.from}/`)) {
          state.delete(key);
          state.set(op.to + key.slice(op.from.length), text);
        }
      }
    }
  }
  const out: Record<string, string> = {};
  for (const [key, text] of state) if (key.startsWith(`${WORKSPACE}/`)) out[key.slice(WORKSPACE.length + 1)] = text;
  return own(out);
}

export async function ours(args: string[], files: Record<string, string>, env: Record<string, string> = {}, timeoutMs = 40_000): Promise<Outcome> {
  const run = await runNodeInProcess(args, files, { timeoutMs, env: { HOME: WORKSPACE, ...env } });
  return { stdout: run.stdout, stderr: run.stderr, exitCode: run.exitCode, files: after(files, run.ops) };
}

/** A fresh folder holding `files` (removed by removeRealRunFolders). */
export function realFolder(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), "webcode-real-tools-"));
  scratch.push(dir);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

export function real(args: string[], files: Record<string, string>, env: Record<string, string> = {}, timeoutMs = 40_000): Outcome {
  const dir = realFolder(files);
  const result = spawnSync(process.execPath, args, { cwd: dir, encoding: "utf8", timeout: timeoutMs, env: { PATH: process.env.PATH ?? "", HOME: dir, ...env } });
  const left: Record<string, string> = {};
  const walk = (sub: string) => {
    for (const entry of readdirSync(path.join(dir, sub))) {
      const relative = sub ? `${sub}/${entry}` : entry;
      if (statSync(path.join(dir, relative)).isDirectory()) walk(relative);
      else left[relative] = readFileSync(path.join(dir, relative), "utf8");
    }
  };
  walk("");
  // Paths the tool prints are the workspace's: the real run's folder reads as ours.
  const local = (text: string) => text.split(dir).join(WORKSPACE);
  return { stdout: local(result.stdout), stderr: local(result.stderr), exitCode: result.status, files: own(left) };
}

export async function both(args: string[], files: Record<string, string>, env: Record<string, string> = {}) {
  const theirs = real(args, files, env);
  const mine = await ours(args, files, env);
  return { theirs, mine };
}

/** npm's .bin entry for `bin` of a package, as the browser runtime's npm writes it (a shell script; it has no symlinks), and as the machine's npm runs it too. */
export const binScript = (target: string) => `#!/bin/sh\nnode "$(dirname "$0")/../${target}" "$@"\n`;

/**
 * `command` (an npm command line) in the browser runtime's shell and in this machine's shell, over
 * the same files: the output (stdout and stderr together, as a terminal shows them) and the exit code.
 */
export async function shellBoth(command: string, files: Record<string, string>): Promise<{ theirs: { output: string; exitCode: number | null }; mine: { output: string; exitCode: number } }> {
  const dir = realFolder(files);
  for (const file of Object.keys(files)) if (file.startsWith("node_modules/.bin/")) chmodSync(path.join(dir, file), 0o755);
  const result = spawnSync("sh", ["-c", `${command} 2>&1`], { cwd: dir, encoding: "utf8", timeout: 60_000, env: { PATH: process.env.PATH ?? "", HOME: dir, npm_config_update_notifier: "false" } });
  const theirs = { output: result.stdout.split(dir).join(WORKSPACE), exitCode: result.status };

  const storage = await openStorage({ name: `real-tools-shell-${Date.now()}-${Math.random()}` });
  const workspace = await WorkspaceFiles.open(storage, "ws");
  for (const [file, text] of Object.entries(files)) await workspace.writeFile(file, text);
  const runtime = createBrowserRuntime(workspace, { node: new SandboxHost(inProcessNodeEndpoint, { keepSpare: false }) });
  try {
    const run = await runtime.exec(command);
    return { theirs, mine: { output: run.output, exitCode: run.exitCode } };
  } finally {
    runtime.dispose();
  }
}
