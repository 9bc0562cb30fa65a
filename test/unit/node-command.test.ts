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

describe("signals on Ctrl-C and Stop", () => {
  it("runs a program's SIGINT handler before it ends: its output and file changes are kept, and its own exit code stands", async () => {
    const { files, runtime } = await setup();
    await files.writeFile(
      "serve.js",
      "process.on('SIGINT', () => { console.log('cleaning up'); require('fs').writeFileSync('state.txt', 'saved'); process.exit(0); });\nconsole.log('ready');\nsetInterval(() => {}, 1000);\n",
    );
    const controller = new AbortController();
    let output = "";
    const run = runtime.exec("node serve.js", {
      signal: controller.signal,
      onOutput: (chunk) => {
        output += chunk;
        if (output.includes("ready")) controller.abort();
      },
    });
    const result = await run;
    expect(result.output).toContain("ready\ncleaning up\n");
    expect(result.exitCode).toBe(0);
    expect(await files.readText("state.txt")).toBe("saved");
  });

  it("ends a program without a handler at once (exit 130), and one whose handler does not end it after the grace period", async () => {
    const { files, runtime } = await setup();
    await files.writeFile("plain.js", "console.log('ready');\nsetInterval(() => {}, 1000);\n");
    await files.writeFile("stubborn.js", "process.on('SIGINT', () => console.log('not yet'));\nconsole.log('ready');\nsetInterval(() => {}, 1000);\n");
    const interrupted = async (command: string) => {
      const controller = new AbortController();
      let output = "";
      const started = performance.now();
      const result = await runtime.exec(command, {
        signal: controller.signal,
        onOutput: (chunk) => {
          output += chunk;
          if (output.includes("ready")) controller.abort();
        },
      });
      return { ...result, ms: performance.now() - started };
    };
    const plain = await interrupted("node plain.js");
    expect(plain.exitCode).toBe(130);
    expect(plain.output).not.toContain("not yet");
    const stubborn = await interrupted("node stubborn.js");
    expect(stubborn.output).toContain("not yet");
    expect(stubborn.exitCode).toBe(130);
    // Ended by the grace period (3 s), not left running.
    expect(stubborn.ms).toBeGreaterThanOrEqual(2_900);
  }, 30_000);
});
