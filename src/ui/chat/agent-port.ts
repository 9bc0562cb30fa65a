// What the chat, sessions and changes UI needs from the agent facade (createAgent in src/agent):
// its event bus and a handful of calls. The facade satisfies this structurally; tests pass a fake.
import type { Disposable } from "../../base";
import type { AgentEvents, PendingPermission, PendingQuestion, PermissionReply, PromptInput } from "../../agent";
import type { MessageRecord, ModelRef, PartRecord, PermissionRule, SessionRecord } from "../../storage";

// The payload types are the agent's own (one definition, so the two cannot drift apart).
export type {
  AgentEvents,
  PendingPermission,
  PendingQuestion,
  PermissionReplied,
  PermissionReply,
  PromptInput,
  QuestionReplied,
  SessionStatus,
} from "../../agent";

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
  /** The workspace file that defined the agent, or redefined the built-in of that name. */
  source?: string;
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
  /** The agent a new session starts with. */
  readonly defaultAgent: string;
  /** Renames a session (optional on the facade; the sidebar hides Rename without it). */
  renameSession?(sessionId: string, title: string): Promise<unknown>;
  /** Deletes a session and its children (optional on the facade; the sidebar hides Delete without it). */
  deleteSession?(sessionId: string): Promise<unknown>;
  /** Files the user changed since the last turn, reported with the next message (optional). */
  noteUserEdits?(sessionId: string, paths: string[]): Promise<unknown>;
  /** Pending asks and questions, to show cards after a reload (optional). */
  pendingPermissions?(sessionId?: string): PendingPermission[];
  pendingQuestions?(sessionId?: string): PendingQuestion[];
  /** Another tab changed these sessions: drop the copies not in use here; returns the ids dropped (optional). */
  forgetChangedElsewhere?(sessionIds?: readonly string[]): string[];
  /** Sessions deleted elsewhere: stops work in them and drops them; returns the ids it held (optional). */
  dropDeletedSessions?(sessionIds: readonly string[]): Promise<string[]>;
}
