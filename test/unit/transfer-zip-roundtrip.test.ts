import { describe, expect, it } from "vitest";
import { encodeText } from "../../src/base";
import { openStorage, type Storage } from "../../src/storage";
import { exportWorkspaceZip, importAsNewWorkspace, importIntoWorkspace, readZip, zipEntries, type ImportEntry } from "../../src/transfer";
import { MemoryWorkspaceFs } from "../fixtures/memory-workspace-fs";

let dbCounter = 0;
const freshStorage = () => openStorage({ name: `transfer-roundtrip-${dbCounter++}` });

const random = (n: number, seed: number) => {
  const out = new Uint8Array(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1664525 + 1013904223) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
};

function sampleWorkspace(): MemoryWorkspaceFs {
  return new MemoryWorkspaceFs("ws_sample", {
    "README.md": "# Sample\n\nÜnïcödé text ✓\n",
    "src/index.ts": "export const answer = 42;\r\nconsole.log(answer);\r\n",
    "src/日本語/名前.txt": "こんにちは\n",
    "assets/logo.png": random(4096, 7),
    "assets/nul.bin": new Uint8Array([104, 105, 0, 33]),
    "assets/ascii-bytes.dat": new Uint8Array([104, 101, 108, 108, 111]),
    "bom.txt": new Uint8Array([0xef, 0xbb, 0xbf, 0x78, 0x0a]),
    "empty.txt": "",
    "empty-folder": null,
    "nested/deep/empty": null,
    ".env.example": "KEY=\n",
  });
}

/** Every path of a workspace with its bytes (files) or null (folders). */
async function snapshot(fs: { listAll(): Promise<Array<{ path: string; kind: string }>>; readFile(p: string): Promise<Uint8Array> }) {
  const out = new Map<string, number[] | null>();
  for (const stat of await fs.listAll()) out.set(stat.path, stat.kind === "dir" ? null : Array.from(await fs.readFile(stat.path)));
  return out;
}

async function storedSnapshot(storage: Storage, workspaceId: string) {
  const out = new Map<string, number[] | null>();
  for (const record of await storage.files.list(workspaceId)) {
    out.set(record.path, record.kind === "dir" ? null : Array.from(typeof record.data === "string" ? encodeText(record.data) : record.data!));
  }
  return out;
}

describe("zip export and import round trip", () => {
  it("import(export(w)) reproduces w byte for byte (binary, empty folders, unicode names)", async () => {
    const w = sampleWorkspace();
    const zip = await exportWorkspaceZip(w, { rootName: "sample" });
    const result = readZip(zip);
    expect(result.strippedFolder).toBe("sample");

    const into = new MemoryWorkspaceFs("ws_target");
    await importIntoWorkspace(into, result.entries, { overwrite: "ask" });
    expect(await snapshot(into)).toEqual(await snapshot(w));

    const storage = await freshStorage();
    const record = await importAsNewWorkspace(storage, "Sample", result.entries);
    expect(await storedSnapshot(storage, record.id)).toEqual(await snapshot(w));
  });

  it("keeps a workspace whose only top-level entry is a folder (the zip adds its own root)", async () => {
    const w = new MemoryWorkspaceFs("ws_one", { "src/a.ts": "a", "src/b/c.ts": "c" });
    const result = readZip(await exportWorkspaceZip(w));
    expect(result.entries.map((e) => e.path).sort()).toEqual(["src/a.ts", "src/b/c.ts"]);
  });

  it("exports one folder with that folder as the zip's root", async () => {
    const w = sampleWorkspace();
    const zip = await exportWorkspaceZip(w, { folder: "src" });
    const result = readZip(zip);
    expect(result.strippedFolder).toBe("src");
    expect(result.entries.map((e) => e.path).sort()).toEqual(["index.ts", "日本語/名前.txt"]);
  });

  it("stores already-compressed formats and deflates text", async () => {
    const text = "abc ".repeat(10_000);
    const zip = await zipEntries(
      [
        { kind: "file", path: "a.txt", data: text },
        { kind: "file", path: "b.png", data: random(10_000, 3) },
      ],
      "r",
    );
    expect(zip.length).toBeLessThan(10_000 + text.length / 10);
    expect(readZip(zip).entries).toHaveLength(2);
  });

  it("falls back to a safe root name", async () => {
    const zip = await zipEntries([{ kind: "file", path: "a.txt", data: "a" }], "../evil");
    expect(readZip(zip).strippedFolder).toBe("workspace");
  });

  it("can be cancelled", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(zipEntries([{ kind: "file", path: "a.txt", data: "a" }], "r", { signal: controller.signal })).rejects.toMatchObject({ name: "AbortError" });
  });
});

describe("importIntoWorkspace", () => {
  const entries: ImportEntry[] = [
    { kind: "file", path: "README.md", data: "new readme" },
    { kind: "file", path: "src/new.ts", data: "new" },
    { kind: "dir", path: "docs" },
  ];

  it("writes with source 'import' and reports progress", async () => {
    const fs = new MemoryWorkspaceFs();
    const progress: number[] = [];
    const result = await importIntoWorkspace(fs, entries, { overwrite: "ask", onProgress: (p) => progress.push(p.files) });
    expect(result).toMatchObject({ cancelled: false, conflicts: [], skipped: [] });
    expect(result.written.sort()).toEqual(["README.md", "docs", "src/new.ts"]);
    expect(fs.writes.every((w) => w.source === "import")).toBe(true);
    expect(progress).toEqual([1, 2]);
  });

  it("asks before overwriting and writes nothing when declined", async () => {
    const fs = new MemoryWorkspaceFs("w", { "README.md": "mine" });
    let asked: string[] = [];
    const result = await importIntoWorkspace(fs, entries, {
      overwrite: "ask",
      confirm: async (conflicts) => {
        asked = conflicts;
        return false;
      },
    });
    expect(asked).toEqual(["README.md"]);
    expect(result.cancelled).toBe(true);
    expect(fs.writes).toEqual([]);
    expect(await fs.readText("README.md")).toBe("mine");
  });

  it("replaces when confirmed, skips when asked to", async () => {
    const replaced = new MemoryWorkspaceFs("w", { "README.md": "mine" });
    await importIntoWorkspace(replaced, entries, { overwrite: "ask", confirm: async () => true });
    expect(await replaced.readText("README.md")).toBe("new readme");

    const kept = new MemoryWorkspaceFs("w", { "README.md": "mine" });
    const result = await importIntoWorkspace(kept, entries, { overwrite: "skip" });
    expect(result.skipped).toEqual(["README.md"]);
    expect(await kept.readText("README.md")).toBe("mine");
    expect(await kept.readText("src/new.ts")).toBe("new");
  });

  it("treats a file where a folder is (and the reverse) as a conflict", async () => {
    const fs = new MemoryWorkspaceFs("w", { "src/x.ts": "x", docs: "i am a file" });
    let asked: string[] = [];
    await importIntoWorkspace(fs, [{ kind: "file", path: "src", data: "now a file" }, { kind: "file", path: "docs/a.md", data: "a" }], {
      overwrite: "ask",
      confirm: async (c) => {
        asked = c;
        return true;
      },
    });
    expect(asked).toEqual(["docs", "src"]);
    expect(await fs.readText("src")).toBe("now a file");
    expect(await fs.readText("docs/a.md")).toBe("a");
  });

  it("refuses invalid or duplicate paths from any caller before writing", async () => {
    const fs = new MemoryWorkspaceFs();
    await expect(importIntoWorkspace(fs, [{ kind: "file", path: "../x", data: "" }], { overwrite: "replace" })).rejects.toMatchObject({ name: "ImportError" });
    await expect(
      importIntoWorkspace(fs, [{ kind: "file", path: "a", data: "" }, { kind: "file", path: "./a", data: "" }], { overwrite: "replace" }),
    ).rejects.toMatchObject({ reason: "duplicate" });
    expect(fs.writes).toEqual([]);
  });
});

describe("importAsNewWorkspace", () => {
  it("creates a new workspace with a free name and folder records for every folder", async () => {
    const storage = await freshStorage();
    const first = await importAsNewWorkspace(storage, "proj", [{ kind: "file", path: "a/b/c.txt", data: "c" }]);
    const second = await importAsNewWorkspace(storage, "PROJ", [{ kind: "file", path: "x.txt", data: "x" }]);
    expect(first.name).toBe("proj");
    expect(second.name).toBe("PROJ 2");
    expect(first.id).not.toBe(second.id);
    const records = await storage.files.list(first.id);
    expect(records.map((r) => `${r.kind}:${r.path}`).sort()).toEqual(["dir:a", "dir:a/b", "file:a/b/c.txt"]);
    expect(await storage.files.list(second.id)).toHaveLength(1);
  });

  it("leaves no workspace behind when writing fails", async () => {
    const storage = await freshStorage();
    const failing: Storage = {
      ...storage,
      files: Object.assign(Object.create(Object.getPrototypeOf(storage.files)), storage.files, {
        apply: async () => {
          throw new Error("disk on fire");
        },
      }),
    };
    await expect(importAsNewWorkspace(failing, "p", [{ kind: "file", path: "a.txt", data: "a" }])).rejects.toThrow(/Nothing was imported/);
    expect(await storage.workspaces.list()).toEqual([]);
  });
});
