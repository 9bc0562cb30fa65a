// The agent's event bus: the only way the UI learns of changes to sessions, messages and parts,
// of permission asks and questions, and of each session's status (idle, busy, retry countdown).
import type { EventBus } from "../../base";
import type { MessageRecord, PartRecord, SessionRecord } from "../../storage";
import type { PendingPermission, PermissionReplied } from "../permission";
import type { Question } from "../tools/tool";

export type SessionStatus =
  | { type: "idle" }
  /** `waitingSince`: the model has sent nothing since then (shown from 20 s of silence on). */
  | { type: "busy"; waitingSince?: number }
  /** Waiting before retry `attempt`; `nextAt` is when it starts (ms since epoch), for a countdown. */
  | { type: "retry"; attempt: number; message: string; nextAt: number };

/** A question the model asked the user (the question tool), waiting for answers. */
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
  /** One list of chosen labels (or typed answers) per question; undefined when rejected. */
  answers?: string[][];
  rejected?: boolean;
}

export interface AgentEvents {
  /** A part changed; `delta` is the text appended by a streaming delta (text/reasoning). */
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
  /** Workspace agent files changed: the next listAgents() (and the next turn) reads them again. */
  "agents-changed": Record<string, never>;
}

export type AgentBus = EventBus<AgentEvents>;
