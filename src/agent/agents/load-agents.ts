// Custom agents from the workspace (docs/agent.md, "Agents"): `.webcode/agent/*.md` and `.opencode/agent/*.md`
// (also the plural `agents/`). Frontmatter configures, the body is the prompt; a file named like a
// built-in merges over it. Bad files are reported as problems, never thrown. A file's permission rules
// only tighten (AgentInfo.workspacePermission): a shipped build.md cannot loosen the user's config.
import { basename, errorMessage, isInside, joinPath } from "../../base";
import type { WorkspaceFs } from "../../runtime";
import type { ModelRef } from "../../storage";
import { PermissionConfigError, ruleset, toolPermission, type PermissionConfig, type Rule } from "../permission";
import type { AgentInfo } from "./agent-info";
import { BUILTIN_AGENTS } from "./builtin";
import { FrontmatterError, parseFrontmatter, splitFrontmatter, type FrontmatterMap, type FrontmatterValue } from "./frontmatter";
import { OPENCODE_CONFIG_FILES, loadOpencodeConfig, type JsonValue } from "./opencode-config";

/** Searched in this order; later folders override earlier ones (.webcode wins over .opencode). */
export const AGENT_FOLDERS = [".opencode/agent", ".opencode/agents", ".webcode/agent", ".webcode/agents"] as const;
/** Agent files larger than this are refused: the body is sent with every request. */
export const MAX_AGENT_FILE_BYTES = 64_000;

export interface AgentProblem {
  path: string;
  message: string;
}

export interface LoadedAgents {
  agents: AgentInfo[];
  problems: AgentProblem[];
}

/** What one file says; undefined fields leave a built-in's value alone. */
type AgentFile = Pick<AgentInfo, "name" | "permission"> &
  Partial<Pick<AgentInfo, "description" | "mode" | "hidden" | "prompt" | "model" | "temperature" | "topP" | "steps" | "color">> & {
    disable?: boolean;
  };

const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
const KNOWN_KEYS = new Set(["name", "description", "mode", "model", "temperature", "top_p", "steps", "permission", "hidden", "color", "disable", "tools"]);

class AgentFileError extends Error {}

function checked<T>(value: FrontmatterValue, key: string, check: (v: FrontmatterValue) => v is FrontmatterValue & T, what: string): T {
  if (!check(value)) throw new AgentFileError(`"${key}" must be ${what}, not ${JSON.stringify(value)}.`);
  return value;
}

const isString = (v: FrontmatterValue): v is string => typeof v === "string";
const isNumber = (v: FrontmatterValue): v is number => typeof v === "number";
const isBoolean = (v: FrontmatterValue): v is boolean => typeof v === "boolean";
const isMap = (v: FrontmatterValue): v is FrontmatterMap => v !== null && typeof v === "object" && !Array.isArray(v);

function parseModel(text: string): ModelRef {
  const slash = text.indexOf("/");
  if (slash <= 0 || slash === text.length - 1) throw new AgentFileError(`"model" must look like "provider/model" (e.g. "anthropic/claude-sonnet-4-5"), not "${text}".`);
  return { providerId: text.slice(0, slash), modelId: text.slice(slash + 1) };
}

function parsePermission(value: FrontmatterValue): Rule[] {
  if (isString(value)) value = { "*": value };
  if (!isMap(value)) throw new AgentFileError(`"permission" must be an action or a map such as "edit: deny".`);
  const config: PermissionConfig = {};
  for (const [permission, entry] of Object.entries(value)) {
    if (isString(entry)) config[permission] = entry as PermissionConfig[string];
    else if (isMap(entry)) {
      const patterns: Record<string, string> = {};
      for (const [pattern, action] of Object.entries(entry)) {
        if (!isString(action)) throw new AgentFileError(`permission "${permission}" pattern "${pattern}" must be allow, ask or deny.`);
        patterns[pattern] = action;
      }
      config[permission] = patterns as PermissionConfig[string];
    } else throw new AgentFileError(`permission "${permission}" must be allow, ask, deny or a map of patterns.`);
  }
  try {
    return ruleset(config);
  } catch (error) {
    if (error instanceof PermissionConfigError) throw new AgentFileError(error.message);
    throw error;
  }
}

/** The older `tools: { write: false }` form: false denies the tool's permission, true allows it. */
function parseTools(value: FrontmatterValue): Rule[] {
  if (!isMap(value)) throw new AgentFileError(`"tools" must be a map of tool names to true or false.`);
  return Object.entries(value).map(([tool, enabled]) => {
    if (!isBoolean(enabled)) throw new AgentFileError(`tools "${tool}" must be true or false.`);
    return { permission: toolPermission(tool), pattern: "*", action: enabled ? "allow" : "deny" };
  });
}

/** Parses one agent file. Throws AgentFileError / FrontmatterError with a message for the user. */
function parseAgentFile(path: string, text: string, warnings: string[]): AgentFile {
  const name = basename(path).replace(/\.md$/i, "");
  const { frontmatter, firstLine, body } = splitFrontmatter(text);
  const data = frontmatter === undefined ? {} : parseFrontmatter(frontmatter, firstLine);
  const agent = parseAgentSettings(name, data, warnings);
  if (body.trim()) agent.prompt = body.trim();
  return agent;
}

/** An agent of opencode.json's `agent` map: the same settings, and the prompt as a string. */
function parseConfigAgent(name: string, value: JsonValue, warnings: string[]): AgentFile {
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw new AgentFileError(`agent "${name}" must be an object of settings.`);
  const { prompt, ...settings } = value;
  if (prompt !== undefined && typeof prompt !== "string") throw new AgentFileError(`"prompt" of agent "${name}" must be a string.`);
  const agent = parseAgentSettings(name, settings as FrontmatterMap, warnings);
  if (prompt?.trim()) agent.prompt = prompt.trim();
  return agent;
}

/** The settings of one agent (frontmatter or a config entry). */
function parseAgentSettings(name: string, data: FrontmatterMap, warnings: string[]): AgentFile {
  if (!NAME.test(name)) throw new AgentFileError(`"${name}" is not a valid agent name: use letters, digits, "-" and "_" (at most 64).`);
  const agent: AgentFile = { name, permission: [] };
  for (const key of Object.keys(data)) if (!KNOWN_KEYS.has(key)) warnings.push(`unknown setting "${key}" was ignored`);
  for (const [key, value] of Object.entries(data)) {
    if (value === null || !KNOWN_KEYS.has(key)) continue;
    switch (key) {
      case "name":
        if (checked(value, key, isString, "a string") !== name) throw new AgentFileError(`"name" (${String(value)}) must match the file name (${name}).`);
        break;
      case "description":
        agent.description = checked(value, key, isString, "a string").trim();
        break;
      case "mode": {
        const mode = checked(value, key, isString, "primary, subagent or all");
        if (mode !== "primary" && mode !== "subagent" && mode !== "all") throw new AgentFileError(`"mode" must be primary, subagent or all, not "${mode}".`);
        agent.mode = mode;
        break;
      }
      case "model":
        agent.model = parseModel(checked(value, key, isString, `a string like "provider/model"`).trim());
        break;
      case "temperature": {
        const t = checked(value, key, isNumber, "a number");
        if (t < 0 || t > 2) throw new AgentFileError(`"temperature" must be between 0 and 2, not ${t}.`);
        agent.temperature = t;
        break;
      }
      case "top_p": {
        const p = checked(value, key, isNumber, "a number");
        if (p <= 0 || p > 1) throw new AgentFileError(`"top_p" must be above 0 and at most 1, not ${p}.`);
        agent.topP = p;
        break;
      }
      case "steps": {
        const s = checked(value, key, isNumber, "a whole number");
        if (!Number.isInteger(s) || s < 1) throw new AgentFileError(`"steps" must be a whole number of at least 1, not ${s}.`);
        agent.steps = s;
        break;
      }
      case "permission":
        agent.permission.push(...parsePermission(value));
        break;
      case "tools":
        // Legacy form first, so an explicit permission map (applied after) wins.
        agent.permission.unshift(...parseTools(value));
        break;
      case "hidden":
        agent.hidden = checked(value, key, isBoolean, "true or false");
        break;
      case "color":
        agent.color = checked(value, key, isString, "a string such as \"#4f8cff\"").trim();
        break;
      case "disable":
        agent.disable = checked(value, key, isBoolean, "true or false");
        break;
    }
  }
  return agent;
}

function merge(base: AgentInfo | undefined, file: AgentFile, path: string): AgentInfo {
  // The file's rules never join `permission` (last match wins there); they become limits.
  const limits = [...(base?.workspacePermission ?? []), ...file.permission];
  const merged: AgentInfo = base
    ? { ...base, permission: base.permission.slice() }
    : { name: file.name, description: file.description ?? "", mode: file.mode ?? "all", permission: [], builtIn: false };
  if (limits.length > 0) merged.workspacePermission = limits;
  if (file.description !== undefined) merged.description = file.description;
  if (file.mode !== undefined) merged.mode = file.mode;
  if (file.hidden !== undefined) merged.hidden = file.hidden;
  if (file.prompt !== undefined) merged.prompt = file.prompt;
  if (file.model !== undefined) merged.model = file.model;
  if (file.temperature !== undefined) merged.temperature = file.temperature;
  if (file.topP !== undefined) merged.topP = file.topP;
  if (file.steps !== undefined) merged.steps = file.steps;
  if (file.color !== undefined) merged.color = file.color;
  merged.source = path;
  return merged;
}

async function agentFiles(fs: WorkspaceFs): Promise<string[]> {
  const paths: string[] = [];
  for (const folder of AGENT_FOLDERS) {
    const stat = await fs.stat(folder).catch(() => undefined);
    if (stat?.kind !== "dir") continue;
    const entries = await fs.list(folder);
    const names = entries.filter((e) => e.kind === "file" && /\.md$/i.test(e.path)).map((e) => basename(e.path));
    for (const name of names.sort()) paths.push(joinPath(folder, name));
  }
  return paths;
}

/** Whether a workspace change may change the agents: a file in an agent folder, a folder above one, or the OpenCode config. */
export function affectsAgents(path: string): boolean {
  return AGENT_FOLDERS.some((folder) => isInside(path, folder) || isInside(folder, path)) || (OPENCODE_CONFIG_FILES as readonly string[]).includes(path);
}

/** Built-in agents merged with the workspace's custom agents, and any problems found. */
export async function loadAgentsWithProblems(fs: WorkspaceFs): Promise<LoadedAgents> {
  const agents = new Map<string, AgentInfo>(BUILTIN_AGENTS.map((a) => [a.name, { ...a, permission: a.permission.slice() }]));
  const problems: AgentProblem[] = [];
  // opencode.json / opencode.jsonc: its agents first (agent files override them), its permission
  // as a limit on every agent (it only tightens: the workspace may come from anyone's zip).
  const { config, problems: configProblems } = await loadOpencodeConfig(fs);
  problems.push(...configProblems);
  const configPath = config.source ?? OPENCODE_CONFIG_FILES[0];
  for (const [name, value] of Object.entries(config.agent ?? {})) {
    try {
      const warnings: string[] = [];
      const entry = parseConfigAgent(name, value, warnings);
      for (const warning of warnings) problems.push({ path: configPath, message: `Agent "${name}": ${warning}.` });
      if (entry.disable) {
        agents.delete(entry.name);
        continue;
      }
      const existing = agents.get(entry.name);
      if (!existing && !entry.description) throw new AgentFileError(`a new agent needs a "description" (it tells the user and other agents when to use it).`);
      agents.set(entry.name, merge(existing, entry, configPath));
    } catch (error) {
      const why = error instanceof AgentFileError ? error.message : errorMessage(error);
      problems.push({ path: configPath, message: `Agent "${name}" was skipped: ${why}` });
    }
  }
  let configLimits: Rule[] = [];
  if (config.permission !== undefined) {
    try {
      configLimits = parsePermission(config.permission as FrontmatterValue);
    } catch (error) {
      problems.push({ path: configPath, message: `"permission" was ignored: ${error instanceof AgentFileError ? error.message : errorMessage(error)}` });
    }
  }
  let paths: string[] = [];
  try {
    paths = await agentFiles(fs);
  } catch (error) {
    problems.push({ path: ".webcode/agent", message: `Could not list the agent folders: ${errorMessage(error)}` });
  }
  for (const path of paths) {
    try {
      const stat = await fs.stat(path);
      if (stat && stat.size > MAX_AGENT_FILE_BYTES) throw new AgentFileError(`the file is larger than ${MAX_AGENT_FILE_BYTES / 1000} KB; shorten the prompt.`);
      const warnings: string[] = [];
      const file = parseAgentFile(path, await fs.readText(path), warnings);
      for (const warning of warnings) problems.push({ path, message: `${capitalise(warning)}.` });
      if (file.disable) {
        agents.delete(file.name);
        continue;
      }
      const existing = agents.get(file.name);
      if (!existing && !file.description) throw new AgentFileError(`a new agent needs a "description" in its frontmatter (it tells the user and other agents when to use it).`);
      agents.set(file.name, merge(existing, file, path));
    } catch (error) {
      const why = error instanceof AgentFileError || error instanceof FrontmatterError ? error.message : errorMessage(error);
      problems.push({ path, message: `This agent file was skipped: ${why} Fix the file to use the agent.` });
    }
  }
  const list = [...agents.values()];
  if (configLimits.length > 0) for (const agent of list) agent.workspacePermission = [...(agent.workspacePermission ?? []), ...configLimits];
  return { agents: list, problems };
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Built-in agents merged with the workspace's custom agents; problems go to `onProblem`. */
export async function loadAgents(fs: WorkspaceFs, onProblem?: (problem: AgentProblem) => void): Promise<AgentInfo[]> {
  const { agents, problems } = await loadAgentsWithProblems(fs);
  if (onProblem) for (const problem of problems) onProblem(problem);
  return agents;
}
