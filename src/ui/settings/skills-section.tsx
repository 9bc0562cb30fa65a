// Settings → Skills: the user's own skills (name, description, instructions), offered by the agent's
// skill tool in every workspace next to the workspace's SKILL.md files.
import { useId, useState } from "react";
import { useStore } from "zustand";
import type { McpSettings } from "./mcp-settings";

export function SkillsSection({ settings, onProblem }: { settings: McpSettings; onProblem(action: () => Promise<void>): void }) {
  const { skills } = useStore(settings.store);
  const ids = { name: useId(), description: useId(), content: useId() };
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [content, setContent] = useState("");
  const [problem, setProblem] = useState<string | undefined>();
  const add = () => {
    const skill = { name: name.trim(), description: description.trim(), content: content.trim() };
    if (!skill.name || !skill.description || !skill.content) return setProblem("A skill needs a name, a description (when to use it) and its instructions.");
    if (skills.some((s) => s.name === skill.name)) return setProblem(`A skill named "${skill.name}" exists already.`);
    setProblem(undefined);
    onProblem(async () => {
      await settings.updateSkills((current) => [...current.filter((s) => s.name !== skill.name), skill]);
      setName("");
      setDescription("");
      setContent("");
    });
  };
  return (
    <section className="settings-section" aria-labelledby="settings-skills">
      <h3 id="settings-skills">Skills</h3>
      <p className="form-hint">
        The agent loads a skill when a task matches its description. Workspaces add their own from <code>.webcode/skills/*/SKILL.md</code>, <code>.opencode/skill/*/SKILL.md</code> and{" "}
        <code>.claude/skills/*/SKILL.md</code>; these are yours, in every workspace.
      </p>
      {skills.length > 0 && (
        <ul className="provider-list">
          {skills.map((skill) => (
            <li key={skill.name} className="provider-row">
              <span className="provider-name">{skill.name}</span>
              <span className="provider-detail">{skill.description}</span>
              <button type="button" className="button" aria-label={`Remove skill ${skill.name}`} onClick={() => onProblem(() => settings.updateSkills((current) => current.filter((s) => s.name !== skill.name)))}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="provider-form skill-form" role="group" aria-label="Add a skill">
        <div className="form-row">
          <label htmlFor={ids.name}>Skill name</label>
          <input id={ids.name} className="text-input" value={name} onChange={(e) => setName(e.target.value)} />
        </div>
        <div className="form-row">
          <label htmlFor={ids.description}>Skill description</label>
          <input id={ids.description} className="text-input" value={description} placeholder="When to use it" onChange={(e) => setDescription(e.target.value)} />
        </div>
        <div className="form-row">
          <label htmlFor={ids.content}>Skill instructions</label>
          <textarea id={ids.content} className="text-input" rows={3} value={content} onChange={(e) => setContent(e.target.value)} />
        </div>
        <button type="button" className="button" onClick={add}>
          Add skill
        </button>
        {problem && (
          <p className="input-error" role="alert">
            {problem}
          </p>
        )}
      </div>
    </section>
  );
}
