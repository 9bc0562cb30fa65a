import { describe, expect, it } from "vitest";
import { UserFacingError } from "../../src/base";
import {
  STARTER_README,
  WorkspaceFiles,
  createWorkspace,
  deleteWorkspace,
  ensureWorkspace,
  listWorkspaces,
  renameWorkspace,
  suggestWorkspaceName,
  validateWorkspaceName,
} from "../../src/runtime";
import { openStorage } from "../../src/storage";

let counter = 0;
const freshStorage = () => openStorage({ name: `workspace-records-${counter++}-${Date.now()}` });

describe("workspaces", () => {
  it("creates a workspace with a README that says what to do next", async () => {
    const storage = await freshStorage();
    const record = await createWorkspace(storage, "  My project  ");
    expect(record.name).toBe("My project");
    expect(record.id).toMatch(/^ws_/);
    const files = await WorkspaceFiles.open(storage, record.id);
    const readme = await files.readText("README.md");
    expect(readme).toBe(STARTER_README);
    for (const hint of [/file tree/, /terminal/, /Settings/, /import/i, /zip/]) expect(readme).toMatch(hint);
    expect((await listWorkspaces(storage)).map((w) => w.name)).toEqual(["My project"]);
  });

  it("can start empty", async () => {
    const storage = await freshStorage();
    const record = await createWorkspace(storage, "Empty", { seedReadme: false });
    expect(await storage.files.list(record.id)).toEqual([]);
  });

  it("refuses empty, too long, control-character and duplicate names with clear errors", async () => {
    const storage = await freshStorage();
    await createWorkspace(storage, "Taken");
    await expect(createWorkspace(storage, "   ")).rejects.toThrow(/cannot be empty/);
    await expect(createWorkspace(storage, "x".repeat(200))).rejects.toThrow(/at most 80/);
    // A control character is one of the invisible ones (base/paths.ts), refused and named.
    await expect(createWorkspace(storage, "bad\u0007name")).rejects.toThrow(/"bad⟨U\+0007⟩name" contains an invisible/);
    await expect(createWorkspace(storage, "taken")).rejects.toThrow(/already exists\. Choose another name/);
    await expect(createWorkspace(storage, "")).rejects.toBeInstanceOf(UserFacingError);
    expect(await listWorkspaces(storage)).toHaveLength(1);
  });

  it("refuses bidi and invisible characters in workspace names, naming them, as file names do", async () => {
    const storage = await freshStorage();
    expect(validateWorkspaceName("report\u202Efdp.exe")).toMatch(/⟨U\+202E⟩.*invisible or text-direction/);
    expect(validateWorkspaceName("a\u200Bb")).toMatch(/⟨U\+200B⟩/);
    expect(validateWorkspaceName("\uFEFF")).toMatch(/⟨U\+FEFF⟩/);
    expect(validateWorkspaceName("Café ünïcode")).toBeUndefined();
    await expect(createWorkspace(storage, "report\u202Efdp.exe")).rejects.toThrow(/text-direction/);
    const ok = await createWorkspace(storage, "Report");
    await expect(renameWorkspace(storage, ok.id, "x\u2066y")).rejects.toThrow(/text-direction/);
    expect(await listWorkspaces(storage)).toHaveLength(1);
  });

  it("renames, keeping the id and refusing a clash with another workspace", async () => {
    const storage = await freshStorage();
    const a = await createWorkspace(storage, "Alpha");
    await createWorkspace(storage, "Beta");
    const renamed = await renameWorkspace(storage, a.id, "Gamma");
    expect(renamed).toMatchObject({ id: a.id, name: "Gamma" });
    expect((await storage.workspaces.get(a.id))?.name).toBe("Gamma");
    // Renaming to its own name (different case) is fine; to another's is not.
    await expect(renameWorkspace(storage, a.id, "gamma")).resolves.toMatchObject({ name: "gamma" });
    await expect(renameWorkspace(storage, a.id, "beta")).rejects.toThrow(/already exists/);
    await expect(renameWorkspace(storage, "ws_missing", "X")).rejects.toThrow(/no longer exists/);
  });

  it("deletes a workspace with its files", async () => {
    const storage = await freshStorage();
    const keep = await createWorkspace(storage, "Keep");
    const gone = await createWorkspace(storage, "Gone");
    await deleteWorkspace(storage, gone.id);
    expect((await listWorkspaces(storage)).map((w) => w.id)).toEqual([keep.id]);
    expect(await storage.files.list(gone.id)).toEqual([]);
    expect(await storage.files.list(keep.id)).toHaveLength(1);
    await expect(deleteWorkspace(storage, gone.id)).rejects.toThrow(/no longer exists/);
  });

  it("suggests a free name", async () => {
    const storage = await freshStorage();
    expect(await suggestWorkspaceName(storage, "repo")).toBe("repo");
    await createWorkspace(storage, "repo", { seedReadme: false });
    await createWorkspace(storage, "repo 2", { seedReadme: false });
    expect(await suggestWorkspaceName(storage, "repo")).toBe("repo 3");
    expect(await suggestWorkspaceName(storage, "  ")).toBe("Workspace");
    // An imported name with invisible characters is suggested without them (the user can see what it says).
    expect(await suggestWorkspaceName(storage, "report\u202Efdp")).toBe("reportfdp");
  });

  it("two tabs at once: the same new name is taken once, and a rename does not bring back a workspace deleted meanwhile", async () => {
    const name = `workspace-records-tabs-${counter++}-${Date.now()}`;
    const [one, two] = [await openStorage({ name }), await openStorage({ name })];
    // Both tabs open webcode for the first time: one first workspace, with its README, for both.
    const [first, second] = await Promise.all([ensureWorkspace(one, "My workspace"), ensureWorkspace(two, "My workspace")]);
    expect(second.id).toBe(first.id);
    expect((await listWorkspaces(one)).map((w) => w.name)).toEqual(["My workspace"]);
    expect(await (await WorkspaceFiles.open(one, first.id)).readText("README.md")).toContain("Welcome to your workspace");
    // The same name asked for from both tabs: taken once, the other is told it exists.
    const results = await Promise.allSettled([createWorkspace(one, "Twin", { seedReadme: false }), createWorkspace(two, "Twin", { seedReadme: false })]);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect((await listWorkspaces(one)).map((w) => w.name).sort()).toEqual(["My workspace", "Twin"]);

    const doomed = await createWorkspace(one, "Doomed", { seedReadme: false });
    const renamed = renameWorkspace(two, doomed.id, "Renamed");
    const deleted = deleteWorkspace(one, doomed.id);
    const [rename] = await Promise.allSettled([renamed, deleted]);
    // Whichever lands first, the workspace is gone afterwards: the rename either came before the
    // delete or was refused as "no longer exists"; it never writes a record without files back.
    if (rename.status === "rejected") expect(String(rename.reason)).toMatch(/no longer exists/);
    expect((await listWorkspaces(one)).map((w) => w.name).sort()).toEqual(["My workspace", "Twin"]);
    one.close();
    two.close();
  });
});
