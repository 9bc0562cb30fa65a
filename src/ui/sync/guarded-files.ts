// Which synced files can loosen what the agent may do (issue 33: "workspace settings that could
// loosen permissions are never taken from a synced document without the user's confirmation",
// the rule backups follow in settings/restore-review.ts). Nothing in the sync document carries
// webcode's own settings (permission choices, trusted sites, providers, MCP servers stay in this
// browser's settings store); but these workspace files set permission rules, agents and MCP
// servers, and a remote change to them could, for example, drop a "deny". A new file only adds
// limits (workspace rules only tighten; declared MCP servers are added disabled), so only changes
// and deletes of a file this device has are held.
import { AGENT_FOLDERS, MCP_CONFIG_FILES, OPENCODE_CONFIG_FILES } from "../../agent";

const FILES: ReadonlySet<string> = new Set<string>([...OPENCODE_CONFIG_FILES, ...MCP_CONFIG_FILES]);

export function isPermissionConfigFile(path: string): boolean {
  return FILES.has(path) || AGENT_FOLDERS.some((folder) => path.startsWith(`${folder}/`));
}
