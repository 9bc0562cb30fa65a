// What a backup's settings would loosen (issue 30, "Nothing leaves without the user seeing where"):
// a backup file is untrusted input, and one added setting such as {"bash": "allow"} would let the
// agent run curl or fetch pages without a card. Before a restore writes anything, the settings it
// would add are compared with what holds now; the ones that let the agent do more, or send data to
// a new place, are listed for the user to confirm (backup-section.tsx). Settings not named here
// (layout, budget, skills…) restore as before.
import { DEFAULT_RULES, MCP_SETTINGS_KEY, looserDecisions, mergeRules, restoreMcpServers, ruleset, type LooserDecision } from "../../agent";
import { PROVIDER_SETTINGS_KEY, restoreProviderConfigs } from "../../providers";
import { restoreRuntimeSettings, RUNTIME_SETTINGS_KEY, type RuntimeSettings } from "../../runtime";
import type { SettingRecord } from "../../storage";
import { PERMISSION_KINDS, PERMISSION_SETTINGS_KEY, TRUSTED_ORIGINS_KEY, restoreOrigins, restorePermissionChoices } from "./permission-settings";

/** One way a restored setting would let more happen than now, in words for the confirmation. */
export interface RestoreLoosening {
  /** The settings key that carries it (what is left out when the user keeps today's settings). */
  setting: string;
  text: string;
}

const ACTION_WORDS = { allow: "allowed without asking", ask: "asked first", deny: "denied" } as const;

function permissionLabel(permission: string): string {
  return PERMISSION_KINDS.find((kind) => kind.permission === permission)?.label ?? permission;
}

/** The permission rules in effect with these stored choices: the defaults, then the user's choices. */
function permissionRules(stored: unknown) {
  return mergeRules(DEFAULT_RULES, ruleset(restorePermissionChoices(stored)));
}

/** "Shell commands: allowed without asking, where now asked first (rm -rf *, git push *)". */
function describeDecisions(decisions: readonly LooserDecision[]): string[] {
  const groups = new Map<string, LooserDecision[]>();
  for (const decision of decisions) {
    const key = `${decision.permission}\n${decision.from}\n${decision.to}`;
    groups.set(key, [...(groups.get(key) ?? []), decision]);
  }
  return [...groups.values()].map((group) => {
    const { permission, from, to } = group[0]!;
    const patterns = group.map((decision) => decision.pattern).filter((pattern) => pattern !== "*");
    const which = patterns.length > 0 ? ` (${patterns.join(", ")})` : "";
    return `${permissionLabel(permission)}: ${ACTION_WORDS[to]}, where now ${ACTION_WORDS[from]}${which}`;
  });
}

function permissionLoosenings(current: unknown, incoming: unknown): string[] {
  const permissions = PERMISSION_KINDS.map((kind) => kind.permission);
  return describeDecisions(looserDecisions(permissionRules(current), permissionRules(incoming), permissions));
}

/** A new MCP server, or one whose address changes: the agent's tool calls would reach it. */
function mcpLoosenings(current: unknown, incoming: unknown): string[] {
  const now = new Map(restoreMcpServers(current).map((server) => [server.id, server]));
  const out: string[] = [];
  for (const server of restoreMcpServers(incoming)) {
    const existing = now.get(server.id);
    if (!existing) out.push(`MCP server "${server.name}" at ${server.url} would be added${server.enabled ? " and connected" : ""}`);
    else if (existing.url !== server.url) out.push(`MCP server "${server.name}" would move from ${existing.url} to ${server.url}`);
  }
  return out;
}

/** A new model provider, or one whose address changes: conversations (with workspace files) would go there. */
function providerLoosenings(current: unknown, incoming: unknown): string[] {
  const now = new Map(restoreProviderConfigs(current).map((config) => [config.id, config]));
  const out: string[] = [];
  for (const config of restoreProviderConfigs(incoming)) {
    const existing = now.get(config.id);
    const address = config.baseUrl ?? "its standard address";
    if (!existing) out.push(`Model provider "${config.name}" at ${address} would be added`);
    else if (existing.baseUrl !== config.baseUrl) out.push(`Model provider "${config.name}" would move from ${existing.baseUrl ?? "its standard address"} to ${address}`);
  }
  return out;
}

/** Runtime settings that decide where commands and git send data. */
const RUNTIME_CHANGES: ReadonlyArray<[field: keyof RuntimeSettings, describe: (value: RuntimeSettings) => string | undefined]> = [
  ["gitCorsProxy", (s) => (s.gitCorsProxy ? `git would send clones, fetches and pushes through the proxy ${s.gitCorsProxy}` : undefined)],
  ["gitTokenHost", (s) => (s.gitTokenHost ? `git would send your access token to ${s.gitTokenHost}` : undefined)],
  ["webContainerApiKey", (s) => (s.webContainerApiKey ? "WebContainer would start with a StackBlitz API key from the backup" : undefined)],
  ["useWebContainer", (s) => (s.useWebContainer ? "commands would run in WebContainer, whose network use webcode cannot check per command" : undefined)],
];

function runtimeLoosenings(current: unknown, incoming: unknown): string[] {
  const now = restoreRuntimeSettings(current);
  const next = restoreRuntimeSettings(incoming);
  const out: string[] = [];
  for (const [field, describe] of RUNTIME_CHANGES) {
    const text = now[field] === next[field] ? undefined : describe(next);
    if (text) out.push(text);
  }
  return out;
}

/** Sites the backup would let commands reach without an ask, that today's list does not. */
function originLoosenings(current: unknown, incoming: unknown): string[] {
  const now = new Set(restoreOrigins(current));
  return restoreOrigins(incoming)
    .filter((origin) => !now.has(origin))
    .map((origin) => `Commands the agent runs could reach ${origin} without asking`);
}

const CHECKS: Readonly<Record<string, (current: unknown, incoming: unknown) => string[]>> = {
  [PERMISSION_SETTINGS_KEY]: permissionLoosenings,
  [TRUSTED_ORIGINS_KEY]: originLoosenings,
  [MCP_SETTINGS_KEY]: mcpLoosenings,
  [PROVIDER_SETTINGS_KEY]: providerLoosenings,
  [RUNTIME_SETTINGS_KEY]: runtimeLoosenings,
};

/** What each reviewed setting is, in words ("permission rules"). */
const SETTING_NAMES: Readonly<Record<string, string>> = {
  [PERMISSION_SETTINGS_KEY]: "permission rules",
  [TRUSTED_ORIGINS_KEY]: "trusted sites",
  [MCP_SETTINGS_KEY]: "MCP servers",
  [PROVIDER_SETTINGS_KEY]: "model providers",
  [RUNTIME_SETTINGS_KEY]: "runtime settings",
};

export function settingName(key: string): string {
  return Object.hasOwn(SETTING_NAMES, key) ? SETTING_NAMES[key]! : key;
}

/** How storing `incoming` under `key` over `current` (undefined: nothing stored) would loosen what the agent may do. */
export function settingLoosenings(key: string, current: unknown, incoming: unknown): string[] {
  const check = Object.hasOwn(CHECKS, key) ? CHECKS[key] : undefined;
  return check ? check(current, incoming) : [];
}

/**
 * What the settings a restore would add loosen. A restore adds only settings whose key is not stored
 * (it never overwrites), so each is compared with nothing stored: the defaults.
 */
export function restoreLoosenings(added: readonly SettingRecord[]): RestoreLoosening[] {
  return added.flatMap((setting) => settingLoosenings(setting.key, undefined, setting.value).map((text) => ({ setting: setting.key, text })));
}
