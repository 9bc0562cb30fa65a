// The built-in agents (docs/agent.md, "Agents"). Their permission lists hold only what differs from the defaults:
// the loop evaluates defaults, then user config, then these (last match wins); rules from workspace
// agent files may only tighten that, and session grants only answer what is still an ask.
import { ruleset } from "../permission";
import { COMPACTION_PROMPT, EXPLORE_PROMPT, SUMMARY_PROMPT, TITLE_PROMPT } from "../prompt";
import type { AgentInfo } from "./agent-info";

/** Where the plan agent may write its plans. */
export const PLAN_FILES_PATTERN = ".webcode/plans/*.md";
export const DEFAULT_AGENT = "build";

const NO_TOOLS = ruleset({ "*": "deny" });

export const BUILTIN_AGENTS: readonly AgentInfo[] = Object.freeze([
  {
    name: "build",
    description: "The default agent: reads, edits and runs code with every tool the permissions allow.",
    mode: "primary",
    permission: [],
    builtIn: true,
  },
  {
    name: "plan",
    description: "Plans without changing code: explores read-only and writes plans only to .webcode/plans/. Commands need approval.",
    mode: "primary",
    permission: ruleset({ edit: { "*": "deny", [PLAN_FILES_PATTERN]: "allow" }, bash: "ask" }),
    builtIn: true,
  },
  {
    name: "general",
    description: "General-purpose: researches complex questions and carries out multi-step tasks on its own; run several in parallel.",
    mode: "subagent",
    permission: ruleset({ todowrite: "deny" }),
    builtIn: true,
  },
  {
    name: "explore",
    description: "Fast, read-only: finds files, searches code, answers how the codebase works. Say how thorough to be (quick, medium or very thorough).",
    mode: "subagent",
    prompt: EXPLORE_PROMPT,
    // webfetch asks like everywhere else (docs/agent.md, "Permissions"): a subagent reading untrusted code is exactly where
    // an injected instruction would try to send data out. The user's Settings choice still applies.
    permission: ruleset({ "*": "deny", read: "allow", glob: "allow", grep: "allow", list: "allow", webfetch: "ask" }),
    builtIn: true,
  },
  { name: "title", description: "Writes session titles.", mode: "primary", hidden: true, prompt: TITLE_PROMPT, permission: NO_TOOLS, builtIn: true },
  { name: "compaction", description: "Summarises a session when its context fills up.", mode: "primary", hidden: true, prompt: COMPACTION_PROMPT, permission: NO_TOOLS, builtIn: true },
  { name: "summary", description: "Summarises what a session did.", mode: "primary", hidden: true, prompt: SUMMARY_PROMPT, permission: NO_TOOLS, builtIn: true },
].map((agent) => Object.freeze(agent) as AgentInfo));

/** A fresh copy of a built-in agent (callers may mutate their copy). */
export function builtinAgent(name: string): AgentInfo | undefined {
  const agent = BUILTIN_AGENTS.find((a) => a.name === name);
  return agent && { ...agent, permission: agent.permission.map((r) => ({ ...r })) };
}
