// Skills (issue 14 point 5): SKILL.md discovery in the three folders, problems for bad files, the
// skill tool's description (name + description of each) and its result (text + other files), the
// "skill" permission, the user's skills from Settings, and reloading when the files change.
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_RULES, PermissionDeniedError, SkillCatalog, decide, discoverSkills, parseSkill, ruleset } from "../../src/agent";
import { createToolHarness, type ToolHarness, type ToolHarnessOptions } from "../support/tool-context";

const harnesses: ToolHarness[] = [];
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.dispose();
});

async function harness(files: Record<string, string>, onAsk?: ToolHarnessOptions["onAsk"]): Promise<ToolHarness> {
  const h = await createToolHarness({ files, ...(onAsk && { onAsk }) });
  harnesses.push(h);
  return h;
}

const skillMd = (name: string, description: string, body = "Do the thing.") => `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;

describe("discoverSkills", () => {
  it("finds SKILL.md under .webcode/skills/*/, .opencode/skill/*/ and .claude/skills/*/, and nothing elsewhere", async () => {
    const h = await harness({
      ".webcode/skills/release/SKILL.md": skillMd("release", "Cut a release: bump, tag, changelog."),
      ".opencode/skill/pdf/SKILL.md": skillMd("pdf", "Work with PDF files."),
      ".claude/skills/review/SKILL.md": skillMd("review", "Review a pull request."),
      "docs/skills/other/SKILL.md": skillMd("other", "Not a skill folder."),
      ".webcode/skills/SKILL.md": skillMd("loose", "Not inside a skill's own folder."),
    });
    const { skills, problems } = await discoverSkills(h.runtime.fs);
    expect(skills.map((s) => [s.name, s.description, s.source])).toEqual([
      ["release", "Cut a release: bump, tag, changelog.", ".webcode/skills/release/SKILL.md"],
      ["pdf", "Work with PDF files.", ".opencode/skill/pdf/SKILL.md"],
      ["review", "Review a pull request.", ".claude/skills/review/SKILL.md"],
    ]);
    expect(problems).toEqual([]);
  });

  it("reports a skill without a description, broken front matter and a duplicate name, and keeps the rest", async () => {
    const h = await harness({
      ".webcode/skills/a/SKILL.md": skillMd("a", "First."),
      ".webcode/skills/nodesc/SKILL.md": "---\nname: nodesc\n---\nbody\n",
      ".webcode/skills/broken/SKILL.md": "---\nname: broken\ndescription: x\n",
      ".claude/skills/a/SKILL.md": skillMd("a", "Second with the same name."),
    });
    const { skills, problems } = await discoverSkills(h.runtime.fs);
    expect(skills.map((s) => s.description)).toEqual(["First."]);
    expect(problems.map((p) => p.path).sort()).toEqual([".claude/skills/a/SKILL.md", ".webcode/skills/broken/SKILL.md:1", ".webcode/skills/nodesc/SKILL.md"].sort());
    expect(problems.find((p) => p.path.includes("nodesc"))?.message).toContain("description");
  });

  it("takes the folder name when the front matter has no name", () => {
    expect(parseSkill("---\ndescription: Folder-named.\n---\nText", ".claude/skills/folder-name/SKILL.md", "folder-name").skill?.name).toBe("folder-name");
  });
});

describe("the skill tool", () => {
  it("lists each skill's name and description, returns the text and the other files, and asks the skill permission", async () => {
    const h = await harness({
      ".webcode/skills/release/SKILL.md": skillMd("release", "Cut a release.", "1. Run scripts/bump.sh\n2. Tag it."),
      ".webcode/skills/release/scripts/bump.sh": "echo bump",
      ".webcode/skills/release/template.md": "# Changes",
      ".webcode/skills/releases-other/SKILL.md": skillMd("releases-other", "Another one."),
    });
    const catalog = new SkillCatalog(h.runtime.fs);
    await catalog.ready();
    const [tool] = catalog.tools();
    expect(tool!.id).toBe("skill");
    expect(tool!.description).toContain("- release: Cut a release.");
    expect(tool!.description).toContain("- releases-other: Another one.");
    const result = await tool!.execute({ name: "release" }, h.context);
    expect(result.output).toContain("1. Run scripts/bump.sh\n2. Tag it.");
    expect(result.output).toContain("- .webcode/skills/release/scripts/bump.sh\n- .webcode/skills/release/template.md");
    expect(result.output).not.toContain("releases-other");
    expect(h.asks).toEqual([expect.objectContaining({ permission: "skill", patterns: ["release"], always: ["release"] })]);
    await expect(tool!.execute({ name: "missing" }, h.context)).rejects.toThrow('There is no skill named "missing". Available: release, releases-other.');
    catalog.dispose();
  });

  it("is allowed by default and can be denied per skill by a rule", async () => {
    expect(decide("skill", "release", DEFAULT_RULES)).toBe("allow");
    expect(decide("skill", "release", [...DEFAULT_RULES, ...ruleset({ skill: { "rel*": "deny" } })])).toBe("deny");
    const h = await harness({ ".webcode/skills/release/SKILL.md": skillMd("release", "Cut a release.") }, (request) => new PermissionDeniedError(request.permission, request.patterns[0]!));
    const catalog = new SkillCatalog(h.runtime.fs);
    await catalog.ready();
    await expect(catalog.tools()[0]!.execute({ name: "release" }, h.context)).rejects.toThrow(PermissionDeniedError);
    catalog.dispose();
  });

  it("offers the user's skills from Settings, no tool when there are none, and reloads when a skill file changes", async () => {
    const h = await harness({});
    let user = [] as Array<{ name: string; description: string; content: string }>;
    const catalog = new SkillCatalog(h.runtime.fs, () => user);
    await catalog.ready();
    expect(catalog.tools()).toEqual([]);
    user = [{ name: "tone", description: "Write in our house style.", content: "Short sentences." }];
    expect(catalog.tools()[0]!.description).toContain("- tone: Write in our house style.");
    expect((await catalog.tools()[0]!.execute({ name: "tone" }, h.context)).output).toContain("Short sentences.");

    // Change notifications arrive in a batch after the write: read as the agent does before a turn.
    const names = async () => (await catalog.ready(), catalog.list().map((s) => s.name));
    await h.files.writeFile(".claude/skills/new/SKILL.md", skillMd("new", "Added later."));
    await expect.poll(names).toEqual(["new", "tone"]);
    await h.files.writeFile(".claude/skills/new/SKILL.md", skillMd("new", "Changed description."));
    await expect.poll(async () => (await catalog.ready(), catalog.tools()[0]!.description)).toContain("- new: Changed description.");
    await h.files.remove(".claude/skills/new");
    await expect.poll(names).toEqual(["tone"]);
    catalog.dispose();
  });

  it("a read overtaken by a newer one (the skill changed while it ran) does not put the older skills back", async () => {
    const h = await harness({ ".claude/skills/tone/SKILL.md": skillMd("tone", "First description.") });
    let hold: Promise<void> | undefined;
    let release!: () => void;
    const fs = Object.create(h.runtime.fs) as typeof h.runtime.fs;
    fs.readText = async (path: string) => {
      const text = await h.runtime.fs.readText(path);
      if (hold) await hold;
      return text;
    };
    fs.onDidChange = (listener) => h.runtime.fs.onDidChange(listener);
    const catalog = new SkillCatalog(fs);
    hold = new Promise<void>((resolve) => (release = resolve));
    const first = catalog.ready(); // reads "First description." and waits
    await new Promise((resolve) => setTimeout(resolve, 20));
    hold = undefined;
    // Changes are delivered on a later task: wait for this one, so the catalog knows its read is old.
    const delivered = new Promise<void>((resolve) => {
      const subscription = h.runtime.fs.onDidChange((changes) => {
        if (!changes.some((c) => c.path === ".claude/skills/tone/SKILL.md")) return;
        subscription.dispose();
        resolve();
      });
    });
    await h.files.writeFile(".claude/skills/tone/SKILL.md", skillMd("tone", "Second description."));
    await delivered;
    await expect.poll(async () => (await catalog.ready(), catalog.list()[0]?.description)).toBe("Second description.");
    release();
    await first;
    expect(catalog.list()[0]?.description).toBe("Second description.");
    catalog.dispose();
  });
});
