// The sandboxed program's synchronous file system: started from the files handed in, Node's error
// codes and messages, and every change reported in order for the page to replay.
import { describe, expect, it } from "vitest";
import type { FsOp, HostMessage, SandboxEvent } from "../../src/runtime/sandbox";
import { SandboxFs, resolvePath, type SandboxFsError } from "../../src/runtime/sandbox/sandbox-fs";
import { serveProgram } from "../../src/runtime/sandbox/worker-kit";

describe("SandboxFs", () => {
  const start = { files: [["/workspace/src/a.txt", "A"]] as Array<[string, string]>, dirs: ["/workspace/empty", "/tmp"] };

  it("starts from the files and folders handed in", () => {
    const fs = new SandboxFs(undefined, start);
    expect(fs.readFile("/workspace/src/a.txt")).toBe("A");
    expect(fs.readdir("/workspace")).toEqual(["empty", "src"]);
    expect(fs.stat("/workspace/empty")?.kind).toBe("dir");
  });

  it("throws Node's errors with code, errno, syscall and path", () => {
    const fs = new SandboxFs(undefined, start);
    const error = (() => {
      try {
        fs.readFile("/workspace/missing.txt");
      } catch (caught) {
        return caught as SandboxFsError;
      }
    })();
    expect(error?.message).toBe("ENOENT: no such file or directory, open '/workspace/missing.txt'");
    expect([error?.code, error?.errno, error?.syscall]).toEqual(["ENOENT", -2, "open"]);
    expect(() => fs.writeFile("/workspace/nope/x.txt", "x")).toThrow("ENOENT");
    expect(() => fs.mkdir("/workspace/src", false)).toThrow("EEXIST: file already exists, mkdir '/workspace/src'");
    expect(() => fs.remove("/workspace/src", { syscall: "rmdir" })).toThrow("ENOTEMPTY");
    expect(() => fs.readFile("/workspace/src")).toThrow("EISDIR");
  });

  it("reports every change in order", () => {
    const ops: FsOp[] = [];
    const fs = new SandboxFs((op) => ops.push(op), start);
    fs.mkdir("/workspace/out/deep", true);
    fs.writeFile("/workspace/out/deep/x.txt", "x");
    fs.rename("/workspace/out", "/workspace/moved");
    fs.remove("/workspace/src/a.txt", { syscall: "unlink" });
    expect(ops).toEqual([
      { kind: "mkdir", path: "/workspace/out/deep" },
      { kind: "write", path: "/workspace/out/deep/x.txt", data: "x" },
      { kind: "rename", from: "/workspace/out", to: "/workspace/moved" },
      { kind: "remove", path: "/workspace/src/a.txt" },
    ]);
    expect(fs.readFile("/workspace/moved/deep/x.txt")).toBe("x");
    expect(fs.stat("/workspace/out")).toBeUndefined();
  });

  it("resolves paths against the working folder", () => {
    expect(resolvePath("/workspace/src", "../a/./b/")).toBe("/workspace/a/b");
    expect(resolvePath("/workspace", "/tmp/../etc")).toBe("/etc");
  });
});

describe("serveProgram", () => {
  it("runs the program once with the request, its file system and its streams", async () => {
    const events: SandboxEvent[] = [];
    let deliver!: (message: HostMessage) => void;
    serveProgram({ send: (event) => events.push(event), onMessage: (listener) => (deliver = listener) }, (context) => {
      context.write("stdout", context.fs.readFile("/w/in.txt") as string);
      context.fs.writeFile("/w/out.txt", context.request.args.join(","));
      context.exit(2);
      context.write("stdout", "after exit is dropped");
    });
    deliver({ type: "run", files: [["/w/in.txt", "hi"]], dirs: [], args: ["a", "b"], env: {}, cwd: "/w", stdin: null });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(events).toEqual([
      { type: "ready" },
      { type: "stdout", data: "hi" },
      { type: "fs", op: { kind: "write", path: "/w/out.txt", data: "a,b" } },
      { type: "exit", code: 2 },
    ]);
  });
});
