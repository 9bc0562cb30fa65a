// Possible secrets in what leaves the browser (a share, an exported zip): grouping the scan's
// findings per file or folder (and the transcript), describing them in words, the API keys
// configured in Settings to look for, and the list of checkboxes both dialogs show ("Leave out …",
// checked by default: the same opt-out in both places).
import { revealInvisibleChars } from "../../base";
import type { McpServerConfig } from "../../agent";
import type { ProviderConfig } from "../../providers";
import { restoreRuntimeSettings, RUNTIME_SETTINGS_KEY } from "../../runtime";
import type { Storage } from "../../storage";
import type { SecretFinding, SecretKind } from "../../transfer";

/** One line of the findings list: a file (left out when checked) or the transcript (redacted when checked). */
export interface FindingGroup {
  key: string;
  where: "file" | "transcript";
  path?: string;
  findings: SecretFinding[];
}

export function groupFindings(findings: readonly SecretFinding[]): FindingGroup[] {
  const files = new Map<string, FindingGroup>();
  const transcript: SecretFinding[] = [];
  for (const finding of findings) {
    if (finding.where === "file" && finding.path !== undefined) {
      const group = files.get(finding.path) ?? { key: `file:${finding.path}`, where: "file" as const, path: finding.path, findings: [] };
      group.findings.push(finding);
      files.set(finding.path, group);
    } else transcript.push(finding);
  }
  const groups = [...files.values()].sort((a, b) => (a.path! < b.path! ? -1 : 1));
  if (transcript.length > 0) groups.push({ key: "transcript", where: "transcript", findings: transcript });
  return groups;
}

/** Header names whose values are credentials (custom proxies use many spellings). */
const CREDENTIAL_HEADER = /auth|key|token|secret|cookie|session|password|credential/i;

/** The values of credential-like headers, and a "Bearer <token>"'s token alone (it can appear in a transcript too). */
function headerSecrets(headers: Record<string, string> | undefined, out: string[]): void {
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (!CREDENTIAL_HEADER.test(name)) continue;
    out.push(value);
    const token = /^\s*(?:bearer|basic|token)\s+(\S+)\s*$/i.exec(value)?.[1];
    if (token) out.push(token);
  }
}

/** The secrets in provider settings: every API key, and the values of credential-like headers. */
export function configuredSecrets(configs: readonly ProviderConfig[]): string[] {
  const secrets: string[] = [];
  for (const config of configs) {
    if (config.apiKey) secrets.push(config.apiKey);
    headerSecrets(config.headers, secrets);
  }
  return secrets.map((s) => s.trim()).filter((s) => s !== "");
}

/** The secrets of MCP servers: credential-like header values, OAuth tokens and a client secret. */
export function mcpConfiguredSecrets(servers: readonly McpServerConfig[]): string[] {
  const secrets: string[] = [];
  for (const server of servers) {
    headerSecrets(server.secret?.headers, secrets);
    const { tokens, client } = server.secret?.oauth ?? {};
    for (const value of [tokens?.access_token, tokens?.refresh_token, tokens?.id_token, client?.client_secret]) if (typeof value === "string") secrets.push(value);
  }
  return secrets.map((s) => s.trim()).filter((s) => s.length >= 8);
}

/**
 * The configured secrets from storage (provider keys, MCP server headers and OAuth tokens, the
 * WebContainer API key, the git access token); unreadable settings give none (the built-in
 * patterns still apply). Secrets sealed by the passphrase are not readable here, as for provider keys.
 */
export async function loadKnownSecrets(storage: Pick<Storage, "settings">): Promise<string[]> {
  try {
    // Loaded on demand: the providers module brings the AI SDK clients, which stay out of the first chunk.
    const { loadProviderConfigs } = await import("../../providers");
    const [configs, runtime, mcp] = await Promise.all([loadProviderConfigs(storage), storage.settings.get<unknown>(RUNTIME_SETTINGS_KEY), mcpServers(storage)]);
    const { webContainerApiKey, gitAccessToken, githubAccessToken, syncAccessToken, syncRooms } = restoreRuntimeSettings(runtime);
    const roomTokens = Object.values(syncRooms).map((room) => room.accessToken);
    return [
      ...configuredSecrets(configs),
      ...mcpConfiguredSecrets(mcp),
      ...[webContainerApiKey, gitAccessToken, githubAccessToken, syncAccessToken, ...roomTokens].filter((key) => key !== ""),
    ];
  } catch {
    return [];
  }
}

async function mcpServers(storage: Pick<Storage, "settings">): Promise<McpServerConfig[]> {
  // Loaded on demand, like the providers module above.
  const { MCP_SETTINGS_KEY, restoreMcpServers } = await import("../../agent");
  return restoreMcpServers(await storage.settings.get<unknown>(MCP_SETTINGS_KEY));
}

const KIND_LABELS: Record<SecretKind, string> = {
  "anthropic-key": "Anthropic API key",
  "openai-key": "OpenAI API key",
  "aws-access-key": "AWS access key",
  "github-token": "GitHub token",
  "slack-token": "Slack token",
  "google-api-key": "Google API key",
  "groq-key": "Groq API key",
  "xai-key": "xAI API key",
  "huggingface-token": "Hugging Face token",
  "openrouter-key": "OpenRouter API key",
  "replicate-token": "Replicate token",
  "private-key": "private key",
  "configured-key": "API key from your Settings",
  "env-file": "environment file",
};

export function describeFinding(finding: SecretFinding): string {
  return finding.kind === "env-file" ? "an environment file (.env)" : `${KIND_LABELS[finding.kind]} ${finding.preview}`;
}

/** "… in its name" for a match in the file's or folder's own name. */
function describeWhere(finding: SecretFinding): string {
  return finding.inName ? " in its name" : "";
}

export function describeFindingFully(finding: SecretFinding): string {
  return describeFinding(finding) + describeWhere(finding);
}

export interface SecretFindingsProps {
  groups: readonly FindingGroup[];
  /** Keys of the groups left out (checked). */
  leftOut: ReadonlySet<string>;
  onToggle(group: FindingGroup, leaveOut: boolean): void;
  disabled?: boolean;
}

/** The findings as checkboxes: "Leave out <path>: …", and for a transcript "Redact key-like strings …". */
export function SecretFindings({ groups, leftOut, onToggle, disabled }: SecretFindingsProps) {
  if (groups.length === 0) return null;
  return (
    <fieldset className="transfer-fieldset share-findings">
      <legend>Possible secrets found</legend>
      {groups.map((group) => (
        <label key={group.key} className="transfer-checkbox share-finding">
          <input type="checkbox" checked={leftOut.has(group.key)} disabled={disabled} onChange={(event) => onToggle(group, event.target.checked)} />
          <span>
            {group.where === "file" ? (
              <>
                Leave out <code>{revealInvisibleChars(group.path!)}</code>: {group.findings.map(describeFindingFully).join(", ")}
              </>
            ) : (
              <>Redact key-like strings everywhere in the share ({group.findings.length} found in the transcript)</>
            )}
          </span>
        </label>
      ))}
    </fieldset>
  );
}
