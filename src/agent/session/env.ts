// The environment one agent instance gives its session machinery: storage, runtime, models, the
// bus and store, permission and question managers, snapshots, the sibling modules and a clock.
import type { CodeIntelligence } from "../tools/code-intelligence";
import type { SessionBudget } from "./budget";
import type { ProviderRegistry } from "../../providers";
import type { Runtime } from "../../runtime";
import type { Storage } from "../../storage";
import type { PermissionManager, Rule } from "../permission";
import type { FileTimes, SubagentRequest, SubagentResult } from "../tools/tool";
import type { AgentBus, SessionStatus } from "./events";
import type { QuestionManager } from "./questions";
import type { AgentInfo, AgentServices } from "./services";
import type { SnapshotService } from "./snapshot";
import type { SessionStore } from "./store";

/** Who is calling a subagent: the parent's tool call, for live progress and abort. */
export interface SubagentCaller {
  sessionId: string;
  messageId: string;
  callId: string;
  agent: AgentInfo;
  /** The rules the parent runs under (its denies carry into the child). */
  rules: Rule[];
  /** The parent's workspace limits (their denies carry into the child too). */
  limits?: Rule[];
  abort: AbortSignal;
  update(update: { title?: string; metadata?: Record<string, unknown> }): void;
}

export interface SessionEnv {
  readonly storage: Storage;
  readonly runtime: Runtime;
  /** The workspace's code service (diagnostics after edits, the code tool), when the runtime has one. */
  readonly code?: CodeIntelligence;
  readonly providers: ProviderRegistry;
  readonly bus: AgentBus;
  readonly store: SessionStore;
  readonly permissions: PermissionManager;
  readonly questions: QuestionManager;
  readonly snapshots: SnapshotService;
  readonly services: AgentServices;
  now(): number;
  /** The user's own permission config (settings), between the agent's defaults and session grants. */
  userRules(): Rule[];
  /** The user's spending limit per session (Settings), read before each model call. */
  budget(): SessionBudget | undefined;
  agents(): Promise<AgentInfo[]>;
  fileTimes(sessionId: string): FileTimes;
  instructionsLoaded(sessionId: string): Set<string>;
  setStatus(sessionId: string, status: SessionStatus): void;
  runSubagent(caller: SubagentCaller, request: SubagentRequest): Promise<SubagentResult>;
}
