// What the chat, sessions and changes UI needs from the agent facade (createAgent in src/agent):
// its event bus and a handful of calls. The facade satisfies this structurally; tests pass a fake.
// The event payloads mirror src/agent/session/events.ts and src/agent/permission exactly.
import type { Disposable } from "../../base";
import type { Question } from "../../agent";
import type { FileAttachment, MessageRecord, ModelRef, PartRecord, PermissionRule, SessionRecord } from "../../storage";

export type SessionStatus =
  | { type: "idle" }
  | { type: "busy" }
  /** Waiting before retry `attempt`; `nextAt` is when it starts (ms since epoch). */
  | { type: "retry"; attempt: number; message: string; nextAt: number };

export type PermissionReply = "once" | "always" | "reject";

/** A permission ask waiting for the user (the card shows it). */
export interface PendingPermission {
  id: string;
  sessionId: string;
  permission: string;
  patterns: string[];
  always: string[];
  metadata: Record<string, unknown>;
  callId?: string;
  messageId?: string;
  createdAt: number;
}

export interface PermissionReplied {
  sessionId: string;
  requestId: string;
  reply: PermissionReply;
  message?: string;
}

export interface PendingQuestion {
  id: string;
  sessionId: string;
  questions: Question[];
  callId?: string;
  messageId?: string;
  createdAt: number;
}

export interface QuestionReplied {
  sessionId: string;
  requestId: string;
  answers?: string[][];
  rejected?: boolean;
}

export interface AgentEvents {
  "part-updated": { part: PartRecord; delta?: string };
  "part-removed": { sessionId: string; messageId: string; partId: string };
  "message-updated": { message: MessageRecord };
  "message-removed": { sessionId: string; messageId: string };
  "session-created": { session: SessionRecord };
  "session-updated": { session: SessionRecord };
  "session-deleted": { sessionId: string };
  "permission-asked": PendingPermission;
  "permission-replied": PermissionReplied;
  "question-asked": PendingQuestion;
  "question-replied": QuestionReplied;
  "session-status": { sessionId: string; status: SessionStatus };
}

export type AgentEventName = keyof AgentEvents;

/** One bus event as data: the name and its payload. */
export type AgentEvent = { [K in AgentEventName]: { name: K; payload: AgentEvents[K] } }[AgentEventName];

export const AGENT_EVENT_NAMES: readonly AgentEventName[] = [
  "part-updated",
  "part-removed",
  "message-updated",
  "message-removed",
  "session-created",
  "session-updated",
  "session-deleted",
  "permission-asked",
  "permission-replied",
  "question-asked",
  "question-replied",
  "session-status",
];

export interface AgentBusLike {
  on<K extends AgentEventName>(name: K, listener: (event: AgentEvents[K]) => void): Disposable;
}

/** A message with its parts, oldest part first. */
export interface MessageWithParts {
  info: MessageRecord;
  parts: PartRecord[];
}

/** The agent profiles the picker offers (mirror of src/agent/agents AgentInfo, the fields we show). */
export interface AgentSummary {
  name: string;
  description: string;
  mode: "primary" | "subagent" | "all";
  hidden?: boolean;
  color?: string;
  builtIn: boolean;
  permission?: PermissionRule[];
}

export interface PromptInput {
  text: string;
  files?: FileAttachment[];
  agent?: string;
  model?: ModelRef;
  system?: string;
}

/** The agent facade as the UI uses it. */
export interface ChatAgent {
  readonly bus: AgentBusLike;
  createSession(input?: { title?: string; agent?: string; model?: ModelRef; parentId?: string }): Promise<SessionRecord>;
  prompt(sessionId: string, input: PromptInput): Promise<unknown>;
  abort(sessionId: string): void;
  replyPermission(requestId: string, reply: PermissionReply, message?: string): unknown;
  replyQuestion(requestId: string, answers: string[][]): unknown;
  /** Dismisses a question without answering (optional on the facade). */
  rejectQuestion?(requestId: string): unknown;
  compact(sessionId: string): Promise<unknown>;
  revert(sessionId: string, messageId: string): Promise<unknown>;
  unrevert(sessionId: string): Promise<unknown>;
  fork(sessionId: string, messageId?: string): Promise<SessionRecord>;
  listSessions(): Promise<SessionRecord[]>;
  getSession(sessionId: string): Promise<SessionRecord | undefined>;
  getMessages(sessionId: string): Promise<MessageWithParts[]>;
  listAgents(): Promise<AgentSummary[]>;
  /** Renames a session (optional on the facade; the sidebar hides Rename without it). */
  renameSession?(sessionId: string, title: string): Promise<unknown>;
  /** Deletes a session and its children (optional on the facade; the sidebar hides Delete without it). */
  deleteSession?(sessionId: string): Promise<unknown>;
  /** Files the user changed since the last turn, reported with the next message (optional). */
  noteUserEdits?(sessionId: string, paths: string[]): Promise<unknown>;
  /** Pending asks and questions, to show cards after a reload (optional). */
  pendingPermissions?(sessionId?: string): PendingPermission[];
  pendingQuestions?(sessionId?: string): PendingQuestion[];
}
