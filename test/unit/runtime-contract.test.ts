// The Runtime contract: what every runtime (browser, WebContainer) must do, written once as
// `runtimeContract(name, makeRuntime)` and run here against the browser runtime.
import { afterEach, describe, expect, it } from "vitest";
import { WorkspaceFiles, type FileChange, type Runtime } from "../../src/runtime";
import { createBrowserRuntime } from "../../src/runtime/browser";
import { openStorage, type Storage } from "../../src/storage";

export interface RuntimeFixture {
  runtime: Runtime;
  files: WorkspaceFiles;
  storage: Storage;
  /** Builds a fresh runtime over the same storage (a page reload). */
  reopen(): Promise<{ runtime: Runtime; files: WorkspaceFiles }>;
}

let dbCounter = 0;

export function runtimeContract(name: string, makeRuntime: (files: WorkspaceFiles) => Runtime | Promise<Runtime>): void {
  describe(`Runtime contract: ${name}`, () => {
    const cleanup: Array<() => void> = [];
    afterEach(() => {
      for (const fn of cleanup.splice(0)) fn();
    });

    async function fixture(): Promise<RuntimeFixture> {
      const storage = await openStorage({ name: `runtime-contract-${name}-${dbCounter++}-${Date.now()}` });
      const workspaceId = "ws_contract";
      const open = async () => {
        const files = await WorkspaceFiles.open(storage, workspaceId);
        const runtime = await makeRuntime(files);
        cleanup.push(() => {
          runtime.dispose();
          files.dispose();
        });
        return { runtime, files };
      };
      const first = await open();
      return { ...first, storage, reopen: open };
    }

    it("reads and writes workspace files through runtime.fs", async () => {
      const { runtime } = await fixture();
      await runtime.fs.writeFile("src/index.ts", "console.log(1);\n");
      expect(await runtime.fs.readText("src/index.ts")).toBe("console.log(1);\n");
      expect((await runtime.fs.list("src")).map((s) => s.path)).toEqual(["src/index.ts"]);
      await runtime.fs.rename("src/index.ts", "src/main.ts");
      await runtime.fs.remove("src/main.ts");
      expect(await runtime.fs.exists("src/main.ts")).toBe(false);
    });

    it("runs commands and reports output and exit codes", async () => {
      const { runtime } = await fixture();
      const ok = await runtime.exec("echo hello && echo world");
      expect(ok).toMatchObject({ output: "hello\nworld\n", exitCode: 0 });
      const failed = await runtime.exec("echo oops >&2; exit 3");
      expect(failed.exitCode).toBe(3);
      expect(failed.output).toContain("oops");
      const missing = await runtime.exec("definitely-not-a-command");
      expect(missing.exitCode).toBe(127);
    });

    it("streams output to onOutput", async () => {
      const { runtime } = await fixture();
      const chunks: string[] = [];
      const result = await runtime.exec("echo streamed", { onOutput: (chunk) => chunks.push(chunk) });
      expect(chunks.join("")).toBe(result.output);
      expect(result.output).toContain("streamed");
    });

    it("runs in the workspace root by default and honours the cwd option", async () => {
      const { runtime } = await fixture();
      await runtime.fs.writeFile("pkg/inner/file.txt", "x");
      expect((await runtime.exec("ls")).output).toContain("pkg");
      expect((await runtime.exec("ls", { cwd: "pkg/inner" })).output.trim()).toBe("file.txt");
      expect((await runtime.exec("cd pkg && ls")).output.trim()).toBe("inner");
      const outside = await runtime.exec("ls", { cwd: "../.." });
      expect(outside.exitCode).not.toBe(0);
      const missing = await runtime.exec("ls", { cwd: "no/such/folder" });
      expect(missing.exitCode).not.toBe(0);
    });

    it("stops a long command at its timeout promptly with exit code 124", async () => {
      const { runtime } = await fixture();
      const started = Date.now();
      const result = await runtime.exec("sleep 5; echo finished", { timeoutMs: 300 });
      const elapsed = Date.now() - started;
      expect(result.exitCode).toBe(124);
      expect(result.timedOut).toBe(true);
      expect(result.output).toMatch(/timed out after 300 ms/);
      expect(result.output).not.toContain("finished");
      // The command alone would take 5 s; the bound leaves room for a loaded machine.
      expect(elapsed).toBeLessThan(4000);
    });

    it("stops a busy loop at its timeout", async () => {
      const { runtime } = await fixture();
      const started = Date.now();
      const result = await runtime.exec("while true; do :; done", { timeoutMs: 300 });
      expect(result.exitCode).toBe(124);
      expect(result.timedOut).toBe(true);
      expect(Date.now() - started).toBeLessThan(10_000);
    });

    it("does not call a script that exits 124 before its timeout timed out", async () => {
      const { runtime } = await fixture();
      const result = await runtime.exec("echo done; exit 124", { timeoutMs: 5_000 });
      expect(result.exitCode).toBe(124);
      expect(result.timedOut).toBeFalsy();
      expect(result.output).not.toMatch(/timed out/);
      // Nor one that prints just-bash's deadline message itself.
      const spoof = await runtime.exec("exec 3>&1; echo 'bash: execution exceeded execution deadline (5000ms)' >&2; exit 124", { timeoutMs: 5_000 });
      expect([spoof.exitCode, spoof.timedOut ?? false]).toEqual([124, false]);
    });

    it("stops on abort (Stop: SIGTERM) with exit code 143, as a shell reports a terminated child", async () => {
      const { runtime } = await fixture();
      const controller = new AbortController();
      const started = Date.now();
      setTimeout(() => controller.abort(), 100);
      const result = await runtime.exec("sleep 5; echo finished", { signal: controller.signal });
      expect(result.exitCode).toBe(143);
      expect(result.aborted).toBe(true);
      expect(result.output).not.toContain("finished");
      expect(Date.now() - started).toBeLessThan(4000);
      const already = await runtime.exec("echo never", { signal: AbortSignal.abort() });
      expect(already.exitCode).toBe(143);
      expect(already.output).not.toContain("never");
    });

    it("shows files changed by commands in fs and fires onDidChange with the source", async () => {
      const { runtime } = await fixture();
      const changes: FileChange[] = [];
      runtime.fs.onDidChange((batch) => changes.push(...batch));
      const result = await runtime.exec("mkdir -p out && echo generated > out/gen.txt && cp out/gen.txt out/copy.txt", {
        source: "agent",
      });
      expect(result.exitCode).toBe(0);
      expect(await runtime.fs.readText("out/gen.txt")).toBe("generated\n");
      expect(await runtime.fs.readText("out/copy.txt")).toBe("generated\n");
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(changes).toContainEqual(expect.objectContaining({ path: "out/gen.txt", type: "created", source: "agent" }));
      expect(changes).toContainEqual(expect.objectContaining({ path: "out/copy.txt", source: "agent" }));
      await runtime.exec("rm -r out");
      expect(await runtime.fs.exists("out")).toBe(false);
    });

    it("sees files written through fs in commands", async () => {
      const { runtime } = await fixture();
      await runtime.fs.writeFile("data.csv", "b\na\nc\n");
      expect((await runtime.exec("sort data.csv | head -n 2")).output).toBe("a\nb\n");
    });

    it("keeps files and binary bytes across a restart", async () => {
      const fx = await fixture();
      const bytes = new Uint8Array([0, 1, 2, 250, 255, 0x89, 0x50]);
      await fx.runtime.fs.writeFile("assets/logo.bin", bytes);
      await fx.runtime.exec("echo from-shell > shell.txt && mkdir -p empty-dir");
      await fx.files.flush();
      fx.runtime.dispose();
      fx.files.dispose();
      const { runtime } = await fx.reopen();
      expect(Array.from(await runtime.fs.readFile("assets/logo.bin"))).toEqual(Array.from(bytes));
      expect(await runtime.fs.readText("shell.txt")).toBe("from-shell\n");
      expect(await runtime.fs.stat("empty-dir")).toMatchObject({ kind: "dir" });
      expect((await runtime.exec("cat shell.txt")).output).toBe("from-shell\n");
    });
  });
}

runtimeContract("browser", (files) => createBrowserRuntime(files));
