import { describe, expect, it } from "vitest";
import { encodeText } from "../../src/base";
import { exportWorkspaceZip, importIntoWorkspace, readZip } from "../../src/transfer";
import { githubArchiveOf } from "../fixtures/github-archive";
import { MemoryWorkspaceFs } from "../fixtures/memory-workspace-fs";

describe("a GitHub archive of a real package (zustand, MIT)", () => {
  it("imports every file byte for byte, with the top folder stripped and the LICENSE kept", async () => {
    const fixture = githubArchiveOf("zustand");
    const result = readZip(fixture.zip);
    expect(result.strippedFolder).toBe("zustand-main");
    const files = result.entries.filter((e) => e.kind === "file");
    expect(files.map((f) => f.path).sort()).toEqual([...fixture.files.keys()].sort());
    for (const file of files) {
      const bytes = typeof file.data === "string" ? encodeText(file.data) : file.data;
      expect(Array.from(bytes), file.path).toEqual(Array.from(fixture.files.get(file.path)!));
    }
    expect(files.find((f) => f.path === "LICENSE")).toMatchObject({ data: expect.stringContaining("MIT License") });
  });

  it("survives edit, export and re-import", async () => {
    const fixture = githubArchiveOf("zustand");
    const fs = new MemoryWorkspaceFs("ws_zustand");
    await importIntoWorkspace(fs, readZip(fixture.zip).entries, { overwrite: "replace" });
    await fs.writeFile("README.md", "# edited\n");
    const again = readZip(await exportWorkspaceZip(fs, { rootName: "zustand-main" }));
    const readme = again.entries.find((e) => e.path === "README.md");
    expect(readme).toMatchObject({ data: "# edited\n" });
    expect(again.entries.filter((e) => e.kind === "file")).toHaveLength(fixture.files.size);
  });
});
