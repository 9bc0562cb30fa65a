// @vitest-environment happy-dom
// Settings → Skills: the user's own skills are added and removed in the dialog and stored; quick
// clicks one after the other each start from the list the one before left.
import "../support/happy-dom-node-name";
import { afterEach, describe, expect, it } from "vitest";
import { openStorage, type Storage } from "../../src/storage";
import { McpSettings } from "../../src/ui/settings";
import { SkillsSection } from "../../src/ui/settings/skills-section";
import { button, byLabel, click, render, settleUntil, typeInto, type Rendered } from "./ui-chat-render";

let view: Rendered | undefined;
let storage: Storage | undefined;
afterEach(async () => {
  await view?.unmount();
  view = undefined;
  storage?.close();
});

const skill = (name: string) => ({ name, description: `When ${name}`, content: `Do ${name}.` });

describe("Settings → Skills", () => {
  it("keeps every one of several changes made at once", async () => {
    storage = await openStorage({ name: `skills-${Math.random()}` });
    const mcp = new McpSettings(storage);
    await mcp.load();
    await Promise.all([mcp.updateSkills((s) => [...s, skill("one")]), mcp.updateSkills((s) => [...s, skill("two")]), mcp.updateSkills((s) => [...s, skill("three")])]);
    expect(mcp.skills.map((s) => s.name)).toEqual(["one", "two", "three"]);
    const reloaded = new McpSettings(storage);
    await reloaded.load();
    expect(reloaded.skills.map((s) => s.name)).toEqual(["one", "two", "three"]);
  });

  it("adds a skill from the form, and two quick Remove clicks remove both", async () => {
    storage = await openStorage({ name: `skills-ui-${Math.random()}` });
    const mcp = new McpSettings(storage);
    await mcp.load();
    await mcp.updateSkills(() => [skill("one"), skill("two")]);
    const problems: unknown[] = [];
    view = await render(<SkillsSection settings={mcp} onProblem={(action) => void action().catch((error: unknown) => problems.push(error))} />);
    await typeInto(byLabel<HTMLInputElement>(view.container, "Skill name")!, "three");
    await typeInto(byLabel<HTMLInputElement>(view.container, "Skill description")!, "When three");
    await typeInto(byLabel<HTMLTextAreaElement>(view.container, "Skill instructions")!, "Do three.");
    await click(button(view.container, "Add skill"));
    await settleUntil(() => mcp.skills.length === 3, "the new skill to be stored");
    expect(mcp.skills.map((s) => s.name)).toEqual(["one", "two", "three"]);

    // Both buttons are on screen before either write lands.
    const removeOne = button(view.container, "Remove skill one")!;
    const removeTwo = button(view.container, "Remove skill two")!;
    await click(removeOne);
    await click(removeTwo);
    await settleUntil(() => mcp.skills.length === 1, "both removals to be stored");
    expect(mcp.skills.map((s) => s.name)).toEqual(["three"]);
    const reloaded = new McpSettings(storage);
    await reloaded.load();
    expect(reloaded.skills.map((s) => s.name)).toEqual(["three"]);
    expect(problems).toEqual([]);
  });
});
