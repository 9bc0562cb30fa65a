// What the Share dialog shares: a session of the open workspace (its transcript from storage) and
// the workspace's files as stored; and how the user's choices about secret findings become
// encoder options (leave a file out, or redact key-like strings in the transcript). The API keys
// configured in Settings are looked for too, whatever their format; they are never shared.
import type { ProviderConfig } from "../../providers";
import { restoreRuntimeSettings, RUNTIME_SETTINGS_KEY } from "../../runtime";
import { RECORD_VERSION, emptyUsage, type SessionRecord, type Storage, type WorkspaceRecord } from "../../storage";
import { scanForSecrets, type SecretFinding, type SecretKind, type ShareEncodeOptions, type ShareSource } from "../../transfer";

/** Top-level sessions of a workspace, most recently updated first (the one the chat opens first). */
export async function workspaceSessions(storage: Storage, workspaceId: string): Promise<SessionRecord[]> {
  const sessions = await storage.sessions.list(workspaceId);
  return sessions.filter((s) => !s.parentId && !s.archived).sort((a, b) => b.updatedAt - a.updatedAt || (a.id < b.id ? 1 : -1));
}

/** A stand-in session for sharing a workspace that has no chat yet: only its files are shared. */
export function filesOnlySession(workspace: WorkspaceRecord, now = Date.now()): SessionRecord {
  return {
    v: RECORD_VERSION,
    id: `files-${workspace.id}`,
    workspaceId: workspace.id,
    title: workspace.name,
    createdAt: now,
    updatedAt: now,
    agent: "build",
    permission: [],
    tokens: emptyUsage(),
    cost: 0,
    todos: [],
  };
}

/** Reads the transcript and the stored files. `flush` first writes pending editor/terminal changes. */
export async function loadShareSource(storage: Storage, workspace: WorkspaceRecord, session: SessionRecord, flush?: () => Promise<void>): Promise<ShareSource> {
  await flush?.();
  const stored = await storage.sessions.get(session.id);
  const [messages, parts, files] = stored
    ? await Promise.all([storage.messages.list(session.id), storage.parts.listBySession(session.id), storage.files.list(workspace.id)])
    : [[], [], await storage.files.list(workspace.id)];
  return { session: stored ?? session, messages, parts, files };
}

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

/**
 * Encoder options for the groups the user chose to leave out (by key). `knownSecrets` (the
 * configured keys) are redacted along with the key-like strings when the transcript is redacted.
 */
export function shareOptionsFor(
  groups: readonly FindingGroup[],
  leftOut: ReadonlySet<string>,
  knownSecrets: readonly string[] = [],
): Pick<ShareEncodeOptions, "excludePaths" | "redactFindings" | "knownSecrets"> {
  const excludePaths = groups.filter((g) => g.where === "file" && leftOut.has(g.key)).map((g) => g.path!);
  const redactFindings = groups.some((g) => g.where === "transcript" && leftOut.has(g.key));
  return { excludePaths, redactFindings, knownSecrets };
}

export function scanSource(source: ShareSource, knownSecrets: readonly string[] = []): FindingGroup[] {
  return groupFindings(scanForSecrets(source, { knownSecrets }));
}

/** Header names whose values are credentials (custom proxies use many spellings). */
const CREDENTIAL_HEADER = /auth|key|token|secret|cookie|session|password|credential/i;

/** The secrets in provider settings: every API key, and the values of credential-like headers. */
export function configuredSecrets(configs: readonly ProviderConfig[]): string[] {
  const secrets: string[] = [];
  for (const config of configs) {
    if (config.apiKey) secrets.push(config.apiKey);
    for (const [name, value] of Object.entries(config.headers ?? {})) {
      if (!CREDENTIAL_HEADER.test(name)) continue;
      secrets.push(value);
      // "Bearer <token>": the token alone can appear in a transcript too.
      const token = /^\s*(?:bearer|basic|token)\s+(\S+)\s*$/i.exec(value)?.[1];
      if (token) secrets.push(token);
    }
  }
  return secrets.map((s) => s.trim()).filter((s) => s !== "");
}

/** The configured secrets from storage (provider keys, the WebContainer API key); unreadable settings give none (the built-in patterns still apply). */
export async function loadKnownSecrets(storage: Pick<Storage, "settings">): Promise<string[]> {
  try {
    // Loaded on demand: the providers module brings the AI SDK clients, which stay out of the first chunk.
    const { loadProviderConfigs } = await import("../../providers");
    const [configs, runtime] = await Promise.all([loadProviderConfigs(storage), storage.settings.get<unknown>(RUNTIME_SETTINGS_KEY)]);
    const webContainerKey = restoreRuntimeSettings(runtime).webContainerApiKey;
    return [...configuredSecrets(configs), ...(webContainerKey ? [webContainerKey] : [])];
  } catch {
    return [];
  }
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
