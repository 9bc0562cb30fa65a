// The records kept in IndexedDB. Every record carries `v` (its schema version) and is read back
// through a restore step (restore.ts) that validates it and migrates older versions.

export const RECORD_VERSION = 1;

export interface WorkspaceRecord {
  v: number;
  id: string;
  name: string;
  createdAt: number;
  updatedAt: number;
  /** Set for workspaces opened from a share link until the user continues them. */
  readOnly?: boolean;
}

/** A file or an explicit (possibly empty) folder of a workspace. Text as string, binary as bytes. */
export interface FileRecord {
  v: number;
  workspaceId: string;
  path: string;
  kind: "file" | "dir";
  data?: string | Uint8Array;
  mtime: number;
}

export interface ModelRef {
  providerId: string;
  modelId: string;
}

export interface TokenUsage {
  input: number;
  output: number;
  reasoning: number;
  cacheRead: number;
  cacheWrite: number;
}

export interface PermissionRule {
  permission: string;
  pattern: string;
  action: "allow" | "ask" | "deny";
}

export interface TodoItem {
  content: string;
  status: "pending" | "in_progress" | "completed" | "cancelled";
  priority: "high" | "medium" | "low";
}

export interface SessionRecord {
  v: number;
  id: string;
  workspaceId: string;
  title: string;
  parentId?: string;
  createdAt: number;
  updatedAt: number;
  agent: string;
  model?: ModelRef;
  permission: PermissionRule[];
  tokens: TokenUsage;
  cost: number;
  todos: TodoItem[];
  share?: { openedFrom: string; readOnly: boolean };
  archived?: boolean;
  /** While reverted: the message the session was reverted to and the snapshot to unrevert to. */
  revert?: { messageId: string; snapshot: string };
  /** Files the user changed since the last turn (reported with the next message). */
  userEdits?: string[];
}

export interface MessageError {
  name: string;
  message: string;
  /** What the user can do about it, shown beside the error. */
  action?: string;
  status?: number;
}

export interface UserMessageRecord {
  v: number;
  id: string;
  sessionId: string;
  role: "user";
  createdAt: number;
  agent: string;
  model?: ModelRef;
  system?: string;
  tools?: Record<string, boolean>;
  /** Set on synthetic messages the agent writes itself ("Continue if you have next steps"). */
  synthetic?: boolean;
  /** The reasoning level the user chose for this turn (unset: the provider's default). */
  reasoning?: "off" | "low" | "medium" | "high";
}

export interface AssistantMessageRecord {
  v: number;
  id: string;
  sessionId: string;
  role: "assistant";
  createdAt: number;
  completedAt?: number;
  parentId: string;
  agent: string;
  model: ModelRef;
  finish?: string;
  tokens: TokenUsage;
  cost: number;
  error?: MessageError;
  summary?: boolean;
}

export type MessageRecord = UserMessageRecord | AssistantMessageRecord;

export type ToolState =
  | { status: "pending"; input: unknown; raw: string }
  | { status: "running"; input: unknown; start: number; title?: string; metadata?: Record<string, unknown> }
  | {
      status: "completed";
      input: unknown;
      output: string;
      title: string;
      metadata: Record<string, unknown>;
      start: number;
      end: number;
      compactedAt?: number;
      attachments?: FileAttachment[];
    }
  | { status: "error"; input: unknown; error: string; start: number; end: number; metadata?: Record<string, unknown> };

export interface FileAttachment {
  mime: string;
  filename: string;
  /** A data: URL (images) or the text of the file. */
  url: string;
}

/**
 * What a provider attached to a streamed part (Gemini thought signatures, Anthropic thinking
 * signatures, OpenAI item ids and encrypted reasoning), keyed by provider name. Kept so the part
 * can be sent back exactly as the provider expects; never shared or exported in share links.
 */
export type ProviderMetadata = Record<string, Record<string, unknown>>;

/** A tool the provider ran itself (web search, web fetch, code execution): never run by webcode. */
export interface ProviderToolState {
  status: "running" | "completed" | "error";
  input: unknown;
  /** The provider's result as sent (JSON), for display and to send back. */
  output?: unknown;
  /** Metadata of the result event (may differ from the call's). */
  resultMetadata?: ProviderMetadata;
}

interface PartBase {
  v: number;
  id: string;
  sessionId: string;
  messageId: string;
}

export type PartRecord = PartBase &
  (
    | { type: "text"; text: string; synthetic?: boolean; time?: { start: number; end?: number }; providerMetadata?: ProviderMetadata }
    // No timing on reasoning that came from a share link or an older export.
    | { type: "reasoning"; text: string; time?: { start: number; end?: number }; providerMetadata?: ProviderMetadata }
    | ({ type: "file" } & FileAttachment & { source?: string })
    | { type: "tool"; callId: string; tool: string; state: ToolState; providerMetadata?: ProviderMetadata }
    | { type: "provider-tool"; callId: string; tool: string; state: ProviderToolState; providerMetadata?: ProviderMetadata }
    /** A source the answer cites or the provider retrieved (a web page or a document). */
    | { type: "source"; sourceType: "url" | "document"; url?: string; title?: string; mediaType?: string; filename?: string }
    | { type: "step-start"; snapshot?: string }
    | { type: "step-finish"; reason: string; tokens: TokenUsage; cost: number; snapshot?: string }
    | { type: "patch"; hash: string; files: string[] }
    | {
        type: "compaction";
        auto: boolean;
        /** The first message kept verbatim after the summary (the last turns); unset: none kept. */
        tailStartId?: string;
      }
    | { type: "subtask"; prompt: string; description: string; agent: string }
    | { type: "retry"; attempt: number; error: MessageError; at: number; delayMs: number }
  );

export type PartType = PartRecord["type"];

/** Content-addressed bytes (snapshots of file contents). */
export interface BlobRecord {
  hash: string;
  data: string | Uint8Array;
}

/** A snapshot of a workspace: path -> blob hash (files only). */
export interface SnapshotRecord {
  v: number;
  id: string;
  workspaceId: string;
  createdAt: number;
  files: Record<string, string>;
}

export interface SettingRecord {
  key: string;
  value: unknown;
}

export function emptyUsage(): TokenUsage {
  return { input: 0, output: 0, reasoning: 0, cacheRead: 0, cacheWrite: 0 };
}
