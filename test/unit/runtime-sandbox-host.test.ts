// The isolated execution host: output and file changes in order, exit codes, and programs ended at
// once by Stop, Ctrl-C and timeouts (endless loops included) or by running out of memory, with the
// host still working afterwards. Real threads (test/support/node-worker-endpoint.ts).
import { afterEach, describe, expect, it, vi } from "vitest";
import { SANDBOX_DID_NOT_START, SandboxHost, type FsOp, type RunMessage, type SandboxEndpoint } from "../../src/runtime/sandbox";
import { nodeWorkerEndpoint, type NodeWorkerEndpoint } from "../support/node-worker-endpoint";

/** A tiny program runtime speaking the protocol: args[0] says what to do. */
const PROGRAM = `
parentPort.postMessage({ type: "ready" });
let runs = 0;
let prepared = 0;
parentPort.on("message", (m) => {
  if (m.type === "prepare") prepared = m.boot.length;
  if (m.type !== "run") return;
  const send = (e) => parentPort.postMessage(e);
  switch (m.args[0]) {
    case "keep":
      runs++;
      send({ type: "stdout", data: "run " + runs + " boot=" + (m.boot ? m.boot.length : 0) + " prepared=" + prepared + "\\n" });
      send({ type: "exit", code: Number(m.args[1] ?? 0), reusable: true });
      break;
    case "echo":
      send({ type: "stdout", data: "out:" + m.args.slice(1).join(" ") + "\\n" });
      send({ type: "stderr", data: "err:" + m.cwd + "\\n" });
      send({ type: "fs", op: { kind: "write", path: "/workspace/a.txt", data: "1" } });
      send({ type: "fs", op: { kind: "rename", from: "/workspace/a.txt", to: "/workspace/b.txt" } });
      send({ type: "exit", code: Number(m.args[1] ?? 0) });
      break;
    case "loop":
      send({ type: "stdout", data: "looping\\n" });
      for (;;) {}
    case "alloc": {
      const keep = [];
      for (;;) keep.push(new Array(100000).fill(Math.random()));
    }
  }
});
`;

function message(args: string[], boot?: RunMessage["boot"]): RunMessage {
  return { type: "run", files: [], dirs: [], args, env: {}, cwd: "/workspace", stdin: null, ...(boot ? { boot } : {}) };
}

describe("SandboxHost", () => {
  const endpoints: NodeWorkerEndpoint[] = [];
  const factory = (limits?: { maxOldGenerationSizeMb: number }) => () => {
    const endpoint = nodeWorkerEndpoint(PROGRAM, limits);
    endpoints.push(endpoint);
    return endpoint;
  };
  afterEach(() => {
    for (const endpoint of endpoints.splice(0)) endpoint.terminate();
  });

  it("streams output, replays file changes in order and returns the program's exit code", async () => {
    const host = new SandboxHost(factory(), { keepSpare: false });
    const out: string[] = [];
    const ops: FsOp[] = [];
    const result = await host.run(message(["echo", "3"]), {
      onStdout: (text) => out.push(`1${text}`),
      onStderr: (text) => out.push(`2${text}`),
      onFsOp: async (op) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        ops.push(op);
      },
    });
    expect(result).toEqual({ exitCode: 3, end: "exit" });
    expect(out).toEqual(["1out:3\n", "2err:/workspace\n"]);
    // Every change is applied before the result returns.
    expect(ops.map((op) => op.kind)).toEqual(["write", "rename"]);
    // One worker per run: the finished one is ended.
    await expect(endpoints[0]!.exited).resolves.toBeTypeOf("number");
  });

  it("ends an endless loop at once on abort (Ctrl-C, Stop) and runs the next program in a fresh worker", async () => {
    const host = new SandboxHost(factory());
    const controller = new AbortController();
    let started!: () => void;
    const looping = new Promise<void>((resolve) => (started = resolve));
    const run = host.run(message(["loop"]), { signal: controller.signal, onStdout: () => started() });
    await looping;
    const before = performance.now();
    controller.abort();
    const result = await run;
    expect(result).toEqual({ exitCode: 130, end: "aborted" });
    // The worker is ended, not asked: the answer does not wait for the loop (loose for a loaded machine).
    expect(performance.now() - before).toBeLessThan(2000);
    await endpoints[0]!.exited;
    const next = await host.run(message(["echo", "0"]));
    expect(next).toEqual({ exitCode: 0, end: "exit" });
    host.dispose();
  });

  it("ends an endless loop when the timeout passes, with exit code 124", async () => {
    const host = new SandboxHost(factory(), { keepSpare: false });
    const before = performance.now();
    const result = await host.run(message(["loop"]), { timeoutMs: 300 });
    expect(result).toEqual({ exitCode: 124, end: "timeout" });
    expect(performance.now() - before).toBeLessThan(5000);
    await endpoints[0]!.exited;
  });

  it("reports a program that allocates without end as out of memory, and the host goes on", async () => {
    const host = new SandboxHost(factory({ maxOldGenerationSizeMb: 24 }), { keepSpare: false });
    const result = await host.run(message(["alloc"]), { timeoutMs: 20_000 });
    expect(result.end).toBe("oom");
    expect(result.exitCode).toBe(134);
    expect(result.message).toMatch(/out of memory/);
    expect(await host.run(message(["echo", "0"]))).toEqual({ exitCode: 0, end: "exit" });
  }, 60_000);

  it("keeps a worker whose runtime exits reusable for the next run, without its start files; after a stop a spare is prepared", async () => {
    const host = new SandboxHost(factory());
    const boot: RunMessage["boot"] = [["runtime.bin", new Uint8Array([1, 2, 3])]];
    const output = async (args: string[]) => {
      let out = "";
      const result = await host.run(message(args, boot), { onStdout: (text) => (out += text) });
      return { ...result, out };
    };
    expect(await output(["keep", "4"])).toEqual({ exitCode: 4, end: "exit", out: "run 1 boot=1 prepared=0\n" });
    expect(await output(["keep"])).toEqual({ exitCode: 0, end: "exit", out: "run 2 boot=0 prepared=0\n" });
    // The kept worker serves the runs: no spare beside it.
    expect(endpoints).toHaveLength(1);
    const controller = new AbortController();
    const stopped = host.run(message(["loop"], boot), { signal: controller.signal, onStdout: () => controller.abort() });
    expect(await stopped).toEqual({ exitCode: 130, end: "aborted" });
    await endpoints[0]!.exited;
    // The next run goes to a fresh worker that was handed the start files before it.
    expect(await output(["keep"])).toEqual({ exitCode: 0, end: "exit", out: "run 1 boot=0 prepared=1\n" });
    expect(endpoints).toHaveLength(2);
    host.dispose();
    await endpoints[1]!.exited;
  });

  it("answers at once when the signal was aborted before the run", async () => {
    const host = new SandboxHost(factory(), { keepSpare: false });
    const controller = new AbortController();
    controller.abort();
    expect(await host.run(message(["echo"]), { signal: controller.signal })).toEqual({ exitCode: 130, end: "aborted" });
    expect(endpoints).toHaveLength(0);
  });

  it("fails a run within 10 s, saying so, when the sandbox never answers; the next run gets a new worker", async () => {
    vi.useFakeTimers();
    try {
      const silent: SandboxEndpoint[] = [];
      const terminated: number[] = [];
      const host = new SandboxHost(
        () => {
          const index = silent.length;
          const endpoint: SandboxEndpoint = { send: () => undefined, onEvent: () => undefined, onCrash: () => undefined, terminate: () => void terminated.push(index) };
          silent.push(endpoint);
          return endpoint;
        },
        { keepSpare: false },
      );
      const run = host.run(message(["echo"]));
      let settled: unknown;
      void run.then((result) => (settled = result));
      await vi.advanceTimersByTimeAsync(9_900);
      expect(settled).toBeUndefined();
      await vi.advanceTimersByTimeAsync(200);
      expect(settled).toEqual({ exitCode: 1, end: "fatal", message: SANDBOX_DID_NOT_START });
      expect(SANDBOX_DID_NOT_START).toMatch(/^The program sandbox did not start within 10 s/);
      expect(terminated).toEqual([0]);
      const again = host.run(message(["echo"]));
      await vi.advanceTimersByTimeAsync(10_100);
      expect((await again).end).toBe("fatal");
      expect(silent).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });
});
