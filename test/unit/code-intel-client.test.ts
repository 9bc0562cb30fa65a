// The workspace side of the code service: nothing starts until the first use; then every TS/JS/
// JSON/CSS source (not node_modules, not other files) goes to the service, later changes and
// deletions follow from the file service, warm() builds the program, and dispose closes it. Also
// the lazy wrapper main.tsx hands to the agent.
import { afterEach, describe, expect, it } from "vitest";
import { WorkspaceCodeIntelligence, type CodeServicePort, type FileUpdate } from "../../src/runtime/code-intel";
import { lazyCodeIntelligence } from "../../src/runtime/code-intel/lazy";
import { createToolHarness, type ToolHarness } from "../support/tool-context";

let harness: ToolHarness | undefined;
afterEach(async () => {
  await harness?.dispose();
  harness = undefined;
});

function recordingPort() {
  const log: string[] = [];
  const updates: FileUpdate[] = [];
  let closed = false;
  const port: CodeServicePort = {
    async update(files) {
      updates.push(...files);
      log.push(`update ${files.map((f) => `${f.path}${f.text === null ? " (deleted)" : ""}`).join(", ")}`);
    },
    async diagnose(edits) {
      log.push(`diagnose ${edits.map((e) => e.path).join(", ")}`);
      return [];
    },
    async query() {
      log.push("query");
      return { locations: [] };
    },
    async warm() {
      log.push("warm");
    },
    close() {
      closed = true;
    },
  };
  return { port, log, updates, closed: () => closed };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 20));

describe("workspace code service client", () => {
  it("starts on first use with the workspace's sources, follows changes, and closes", async () => {
    harness = await createToolHarness({
      files: { "src/a.ts": "a", "src/b.json": "{}", "src/c.css": "", "README.md": "#", "node_modules/x/index.d.ts": "x" },
    });
    const fake = recordingPort();
    let connects = 0;
    const client = new WorkspaceCodeIntelligence(harness.files, () => {
      connects++;
      return fake.port;
    });
    await harness.files.writeFile("src/d.ts", "d");
    await tick();
    expect(connects).toBe(0);

    client.warm();
    await tick();
    expect(connects).toBe(1);
    expect(fake.log).toEqual(["update src/a.ts, src/b.json, src/c.css, src/d.ts", "warm"]);

    // Made in one task, so the file service reports them in one batch (each write resolves once stored).
    await Promise.all([harness.files.writeFile("src/a.ts", "changed"), harness.files.writeFile("notes.txt", "ignored"), harness.files.remove("src/d.ts")]);
    await tick();
    await client.diagnose([{ path: "src/e.ts", before: undefined, after: "e" }]);
    expect(fake.log.slice(2)).toEqual(["update src/a.ts, src/d.ts (deleted)", "diagnose src/e.ts"]);
    expect(fake.updates.find((u) => u.path === "src/a.ts" && u.text === "changed")).toBeTruthy();
    // Files it does not check are not sent to the service.
    expect(await client.diagnose([{ path: "notes.md", before: "a", after: "b" }])).toEqual([]);
    expect(fake.log.at(-1)).toBe("diagnose src/e.ts");

    client.dispose();
    expect(fake.closed()).toBe(true);
    await expect(client.query({ operation: "workspace_symbols", query: "a" })).rejects.toThrow(/closed/);
    expect(connects).toBe(1);
  });

  it("warm() starts nothing in a workspace without a file it checks", async () => {
    harness = await createToolHarness({ files: { "README.md": "#", "node_modules/x/index.ts": "x" } });
    let connects = 0;
    const client = new WorkspaceCodeIntelligence(harness.files, () => {
      connects++;
      return recordingPort().port;
    });
    client.warm();
    await tick();
    expect(connects).toBe(0);
    await harness.files.writeFile("src/a.ts", "a");
    client.warm();
    await tick();
    expect(connects).toBe(1);
    client.dispose();
  });

  it("the lazy wrapper loads once, on first use, and disposes what it loaded", async () => {
    let loads = 0;
    let disposed = 0;
    const lazy = lazyCodeIntelligence(async () => {
      loads++;
      return {
        diagnose: async () => [{ path: "a.ts", errors: [], before: [] }],
        query: async () => ({ locations: [] }),
        warm: () => undefined,
        dispose: () => void disposed++,
      };
    });
    expect(loads).toBe(0);
    expect(await lazy.diagnose([])).toEqual([{ path: "a.ts", errors: [], before: [] }]);
    await lazy.query({ operation: "symbols", path: "a.ts" });
    expect(loads).toBe(1);
    lazy.dispose();
    await tick();
    expect(disposed).toBe(1);
    await expect(lazy.diagnose([])).rejects.toThrow(/closed/);
  });
});
