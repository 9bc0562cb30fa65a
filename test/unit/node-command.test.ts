// The shell's node command: the program sees the workspace at /workspace, its writes land in the
// one workspace file service (attributed to the command's source), piped input reaches its stdin,
// and its exit code is the command's.
import { describe, expect, it } from "vitest";
import { WorkspaceFiles, type FileChange } from "../../src/runtime";
import { createBrowserRuntime } from "../../src/runtime/browser";
import { SandboxHost } from "../../src/runtime/sandbox";
import { openStorage } from "../../src/storage";
import { inProcessNodeEndpoint } from "../support/in-process-endpoint";

let counter = 0;

async function setup() {
  const storage = await openStorage({ name: `node-command-${counter++}-${Date.now()}` });
  const files = await WorkspaceFiles.open(storage, "ws");
  const runtime = createBrowserRuntime(files, { node: new SandboxHost(inProcessNodeEndpoint, { keepSpare: false }) });
  return { files, runtime };
}

describe("the node command", () => {
  it("runs a workspace file whose writes reach the workspace file service, attributed to the runner", async () => {
    const { files, runtime } = await setup();
    await files.writeFile("src/make.js", "const fs = require('fs');\nfs.mkdirSync('out', { recursive: true });\nfs.writeFileSync('out/result.txt', String(6 * 7));\nfs.renameSync('stale.txt', 'out/moved.txt');\nconsole.log('wrote');");
    await files.writeFile("stale.txt", "old");
    const changes: FileChange[] = [];
    files.onDidChange((batch) => changes.push(...batch));
    const result = await runtime.exec("node src/make.js && cat out/result.txt", { source: "agent" });
    expect(result).toEqual({ output: "wrote\n42", exitCode: 0 });
    expect(await files.readText("out/result.txt")).toBe("42");
    expect(await files.readText("out/moved.txt")).toBe("old");
    expect(await files.exists("stale.txt")).toBe(false);
    expect(changes.filter((change) => change.path === "out/result.txt").map((change) => change.source)).toEqual(["agent"]);
    expect(runtime.capabilities.node).toBe(true);
  });

  it("reads piped input and returns the program's exit code", async () => {
    const { runtime } = await setup();
    const result = await runtime.exec(`printf 'a\\nb\\n' | node -e "let s=''; process.stdin.on('data', (d) => s += d).on('end', () => { console.log(s.trim().split(String.fromCharCode(10)).length); process.exitCode = 7; })"; echo "code=$?"`);
    expect(result.output).toBe("2\ncode=7\n");
  });
});
