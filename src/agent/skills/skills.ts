// Skills (issue 14, point 5): SKILL.md files with a `name` and `description` in their front matter,
// found under .webcode/skills/*/, .opencode/skill/*/ and .claude/skills/*/ of the workspace, plus
// the user's own from Settings. The `skill` tool lists them by name and description and returns a
// skill's text and the list of its other files on demand (permission kind "skill").
import { z } from "zod";
import { errorMessage, type Disposable } from "../../base";
import type { WorkspaceFs } from "../../runtime";
import { FrontmatterError, parseFrontmatter, splitFrontmatter } from "../agents";
import type { ToolDefinition } from "../tools/tool";

/** Folders whose direct subfolders hold one skill each (a SKILL.md). */
export const SKILL_FOLDERS = [".webcode/skills", ".opencode/skill", ".opencode/skills", ".claude/skills"] as const;
export const SKILL_FILE = "SKILL.md";
/** Larger SKILL.md files are skipped (their text goes into the model's context). */
export const MAX_SKILL_BYTES = 100_000;
/** Each description in the tool's own description is cut to this many characters. */
export const SKILL_DESCRIPTION_MAX = 300;
export const SKILL_PERMISSION = "skill";

export interface Skill {
  name: string;
  description: string;
  /** The text after the front matter. */
  content: string;
  /** The skill's folder in the workspace; undefined for the user's skills from Settings. */
  folder?: string;
  /** Where it came from, for the user: the SKILL.md path or "Settings". */
  source: string;
}

export interface SkillProblem {
  path: string;
  message: string;
}

/** A skill the user keeps in Settings (same fields as a SKILL.md). */
export interface UserSkill {
  name: string;
  description: string;
  content: string;
}

function cleanName(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() ? value.trim() : undefined;
}

/** Reads one SKILL.md; what is wrong with it is a problem, never an exception. */
export function parseSkill(text: string, path: string, folderName: string): { skill?: Skill; problem?: SkillProblem } {
  try {
    const doc = splitFrontmatter(text);
    const front = doc.frontmatter !== undefined ? parseFrontmatter(doc.frontmatter, doc.firstLine) : {};
    const name = cleanName(front.name) ?? folderName;
    const description = cleanName(front.description);
    if (!description) return { problem: { path, message: "This skill was skipped: its front matter needs a `description` (what the skill is for and when to use it)." } };
    return { skill: { name, description, content: doc.body.trim(), folder: path.slice(0, path.lastIndexOf("/")), source: path } };
  } catch (error) {
    const where = error instanceof FrontmatterError ? `${path}:${error.line}` : path;
    return { problem: { path: where, message: `This skill was skipped: ${errorMessage(error)}.` } };
  }
}

/** Every skill of the workspace (first one wins when two share a name) and what was skipped. */
export async function discoverSkills(fs: WorkspaceFs): Promise<{ skills: Skill[]; problems: SkillProblem[] }> {
  const skills: Skill[] = [];
  const problems: SkillProblem[] = [];
  const seen = new Set<string>();
  for (const root of SKILL_FOLDERS) {
    const folders = await fs.list(root).catch(() => []);
    for (const folder of folders) {
      if (folder.kind !== "dir") continue;
      const path = `${folder.path}/${SKILL_FILE}`;
      const stat = await fs.stat(path).catch(() => undefined);
      if (stat?.kind !== "file") continue;
      if (stat.size > MAX_SKILL_BYTES) {
        problems.push({ path, message: `This skill was skipped: it is larger than ${MAX_SKILL_BYTES / 1000} KB.` });
        continue;
      }
      const name = folder.path.slice(folder.path.lastIndexOf("/") + 1);
      const { skill, problem } = parseSkill(await fs.readText(path), path, name);
      if (problem) problems.push(problem);
      if (!skill) continue;
      if (seen.has(skill.name)) {
        problems.push({ path, message: `This skill was skipped: another skill is already named "${skill.name}".` });
        continue;
      }
      seen.add(skill.name);
      skills.push(skill);
    }
  }
  return { skills, problems };
}

/** Whether a change to `path` can change the skills. */
export function affectsSkills(path: string): boolean {
  return SKILL_FOLDERS.some((root) => path === root || path.startsWith(`${root}/`) || root.startsWith(`${path}/`));
}

function cut(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** The `skill` tool for these skills (the caller offers none when there are none). */
export function createSkillTool(skills: readonly Skill[], fs: WorkspaceFs): ToolDefinition {
  const list = skills.map((s) => `- ${s.name}: ${cut(s.description, SKILL_DESCRIPTION_MAX)}`).join("\n");
  return {
    id: "skill",
    description:
      "Load a skill: instructions and resources for a specific kind of task. When a task matches a skill's description, load it before you start and follow it. " +
      "The result is the skill's text and the list of its other files (read them with the read tool when the skill refers to them).\n\nAvailable skills:\n" +
      list,
    parameters: z.object({ name: z.string().describe("The skill's name, exactly as listed") }),
    async execute({ name }: { name: string }, context) {
      const skill = skills.find((s) => s.name === name);
      if (!skill) throw new Error(`There is no skill named "${name}". Available: ${skills.map((s) => s.name).join(", ")}.`);
      await context.ask({ permission: SKILL_PERMISSION, patterns: [skill.name], always: [skill.name], metadata: { skill: skill.name, source: skill.source } });
      const files: string[] = [];
      if (skill.folder) {
        const all = await fs.listAll();
        for (const entry of all) if (entry.kind === "file" && entry.path.startsWith(`${skill.folder}/`) && entry.path !== skill.source) files.push(entry.path);
        files.sort();
      }
      const output = [
        `<skill name="${skill.name}" source="${skill.source}">`,
        skill.content,
        "</skill>",
        skill.folder ? (files.length > 0 ? `\nOther files of this skill (${skill.folder}/):\n${files.map((f) => `- ${f}`).join("\n")}` : "\nThis skill has no other files.") : "",
      ].join("\n");
      return { title: skill.name, output: output.trimEnd(), metadata: { skill: skill.name, source: skill.source, files } };
    },
  } as ToolDefinition;
}

/**
 * The skills one agent offers: the workspace's (read again when their files change) and the
 * user's. `ready()` resolves once the current list is read.
 */
export class SkillCatalog implements Disposable {
  private loading: Promise<void> | undefined;
  /** Bumped by each read: a read that a later one overtook does not apply its older result. */
  private reads = 0;
  private skills: Skill[] = [];
  private tool: ToolDefinition | undefined;
  private readonly subscription: Disposable;

  constructor(
    private readonly fs: WorkspaceFs,
    private readonly userSkills: () => readonly UserSkill[] = () => [],
    private readonly onProblem?: (problem: SkillProblem) => void,
  ) {
    this.subscription = fs.onDidChange((changes) => {
      if (changes.some((c) => affectsSkills(c.path))) this.loading = undefined;
    });
  }

  /** Reads the workspace's skills if they changed since the last read. */
  ready(): Promise<void> {
    if (this.loading) return this.loading;
    const read = ++this.reads;
    this.loading = discoverSkills(this.fs).then(
      ({ skills, problems }) => {
        // The skills changed again while this read ran: wait for the newer read instead.
        if (read !== this.reads) return this.ready();
        this.skills = skills;
        this.tool = undefined;
        for (const problem of problems) this.onProblem?.(problem);
      },
      (error: unknown) => {
        if (read !== this.reads) return this.ready();
        this.loading = undefined;
        this.onProblem?.({ path: SKILL_FOLDERS[0], message: `The skills could not be read: ${errorMessage(error)}` });
      },
    );
    return this.loading;
  }

  /** The workspace's skills, then the user's (a workspace skill wins a shared name). */
  list(): Skill[] {
    const names = new Set(this.skills.map((s) => s.name));
    const user = this.userSkills()
      .filter((s) => s.name.trim() && s.description.trim() && !names.has(s.name.trim()))
      .map((s): Skill => ({ name: s.name.trim(), description: s.description.trim(), content: s.content, source: "Settings" }));
    return [...this.skills, ...user];
  }

  /** The skill tool for the current list, or none when there are no skills. */
  tools(): ToolDefinition[] {
    const skills = this.list();
    if (skills.length === 0) return [];
    const key = JSON.stringify(skills.map((s) => [s.name, s.description, s.source, s.content]));
    if (!this.tool || (this.tool as ToolDefinition & { key?: string }).key !== key) this.tool = Object.assign(createSkillTool(skills, this.fs), { key });
    return [this.tool];
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
