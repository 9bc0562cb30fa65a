// The agent facade: the one object the UI talks to. It owns the session store, the event bus, the
// permission and question managers and the workspace snapshots, runs turns (one at a time per
// session) and exposes sessions, messages, revert/fork and replies to asks.
import { newPartHeader, newSession, newUserMessage } from "../storage";
import { DisposableStore, EventBus, UserFacingError, errorMessage, type Disposable } from "../base";
import type { ProviderRegistry, ReasoningEffort } from "../providers";
import type { Runtime } from "../runtime";
import {
  
  type FileAttachment,
  type ModelRef,
  type PartRecord,
  type SessionRecord,
  type Storage,
  type UserMessageRecord,
} from "../storage";
import { PermissionManager, type PendingPermission, type PermissionReply, type Rule } from "./permission";
import type { SubagentRequest, ToolDefinition } from "./tools/tool";
import { SkillCatalog, type UserSkill } from "./skills";
import type { CodeIntelligence } from "./tools/code-intelligence";
import { queueCompaction } from "./session/compaction";
import type { SessionEnv, SubagentCaller } from "./session/env";
import type { AgentBus, AgentEvents, PendingQuestion, SessionStatus } from "./session/events";
import { DEFAULT_AGENT, affectsAgents, loadOpencodeConfig, type AgentInfo } from "./agents";
import { runLoop, type LoopResult } from "./session/loop";
import { QuestionManager } from "./session/questions";
import { closeInterrupted } from "./session/recovery";
import { commitRevert, forkSession, revertSession, unrevertSession, visibleToUser } from "./session/revert";
import type { SessionBudget } from "./session/budget";
import type { AgentServices } from "./session/services";
import { defaultServices, type DefaultServicesOptions } from "./session/default-services";
import { SnapshotService } from "./session/snapshot";
import { SessionStore, type MessageWithParts } from "./session/store";
import { runSubagent } from "./session/subagent";
import { SessionStates, Turn } from "./session/turns";
import { DEFAULT_SESSION_TITLE } from "./session/title";

export interface AgentDeps {
  storage: Storage;
  runtime: Runtime;
  providers: ProviderRegistry;
  /** Replaces parts of the session machinery's siblings (tools, agents, prompts, costs); tests inject here. */
  services?: Partial<AgentServices>;
  /** fetch for the webfetch tool (default: the global fetch). */
  fetch?: DefaultServicesOptions["fetch"];
  now?: () => number;
  /**
   * The workspace's code service (diagnostics after edits, the code tool); none in a runtime that
   * has no such service. The agent disposes it with itself.
   */
  codeIntelligence?: CodeIntelligence;
  /** The model for sessions and prompts that name none (the user's default in Settings). */
  defaultModel?: () => ModelRef | undefined;
  /** The user's permission config as rules (Settings), applied over the defaults. */
  userRules?: () => Rule[];
  /** The user's spending limit per session (Settings); none when undefined. */
  sessionBudget?: () => SessionBudget | undefined;
  /** A problem in the workspace's agent files or opencode.json (file and line, what was skipped). */
  onWorkspaceProblem?: (problem: { path: string; message: string }) => void;
  /** A batched write failed (e.g. storage quota); the UI shows it. */
  onPersistError?: (error: unknown) => void;
  /** Other tabs on the same database: one turn per session at a time across them (default: this tab only). */
  turns?: TurnCoordinator;
  /** Tools from outside the agent, read at every step (the tools of connected MCP servers). */
  extraTools?: () => ToolDefinition[];
  /** System prompt sections from outside the agent, read at every step (connected MCP servers' instructions). */
  extraInstructions?: () => string[];
  /** The user's skills from Settings (the workspace's own are found in its files). */
  userSkills?: () => readonly UserSkill[];
}

/**
 * Keeps a session's turns to one tab at a time (the page implements it with Web Locks). `run`
 * refuses, with a message for the user, while another tab runs a turn of that session.
 */
export interface TurnCoordinator {
  run<T>(sessionId: string, turn: () => Promise<T>): Promise<T>;
  /** True while another tab runs a turn of the session (its unfinished reply is not an interrupted one). */
  runningElsewhere(sessionId: string): Promise<boolean>;
}

export interface PromptInput {
  text: string;
  files?: FileAttachment[];
  agent?: string;
  model?: ModelRef;
  /** Extra system text for this turn. */
  system?: string;
  /** Per-turn tool toggles: `{ bash: false }` hides bash for this turn. */
  tools?: Record<string, boolean>;
  /** How much the model reasons this turn (the chat's reasoning control); unset: the provider's default. */
  reasoning?: ReasoningEffort;
  /** Run the text with this subagent as a subtask (the user's "@explore ..."). */
  subtask?: { agent: string; description: string };
}

export interface PromptResult {
  userMessageId: string;
  /** The last reply written in the turn. */
  assistantMessageId?: string;
  error?: { name: string; message: string; action?: string };
}

export interface CreateSessionInput {
  title?: string;
  agent?: string;
  model?: ModelRef;
}

export interface Agent extends Disposable {
  readonly bus: AgentBus;
  createSession(input?: CreateSessionInput): Promise<SessionRecord>;
  /** Adds the user's message and runs the turn; resolves when the turn ends. */
  prompt(sessionId: string, input: PromptInput): Promise<PromptResult>;
  abort(sessionId: string): void;
  status(sessionId: string): SessionStatus;
  replyPermission(requestId: string, reply: PermissionReply, message?: string): boolean;
  pendingPermissions(sessionId?: string): PendingPermission[];
  replyQuestion(requestId: string, answers: string[][]): boolean;
  rejectQuestion(requestId: string): boolean;
  pendingQuestions(sessionId?: string): PendingQuestion[];
  /** Summarises the session now (the /compact command). */
  compact(sessionId: string): Promise<void>;
  revert(sessionId: string, messageId: string): Promise<SessionRecord>;
  unrevert(sessionId: string): Promise<SessionRecord>;
  fork(sessionId: string, messageId?: string): Promise<SessionRecord>;
  listSessions(options?: { includeChildren?: boolean; includeArchived?: boolean }): Promise<SessionRecord[]>;
  getSession(sessionId: string): Promise<SessionRecord | undefined>;
  /** Messages with parts, oldest first; while reverted, the hidden ones are left out. */
  getMessages(sessionId: string): Promise<MessageWithParts[]>;
  renameSession(sessionId: string, title: string): Promise<void>;
  setArchived(sessionId: string, archived: boolean): Promise<void>;
  deleteSession(sessionId: string): Promise<void>;
  /** Files the user changed since the last turn; reported to the model with the next message. */
  noteUserEdits(sessionId: string, paths: string[]): Promise<void>;
  listAgents(): Promise<AgentInfo[]>;
  /** The agent a new session starts with. */
  readonly defaultAgent: string;
  /** Resolves when no turn is running and background work (titles) has settled. */
  whenIdle(): Promise<void>;
  /** Writes everything queued to storage. */
  flush(): Promise<void>;
  /** Another tab stored changes to these sessions (all when omitted): drop the copies not in use here; returns their ids. */
  forgetChangedElsewhere(sessionIds?: readonly string[]): string[];
  /**
   * Sessions deleted elsewhere (Settings → Storage, another tab): a turn running here in one is
   * stopped, nothing more is written to it, and what it wrote after the delete is deleted too.
   * Returns the ids this agent held.
   */
  dropDeletedSessions(sessionIds: readonly string[]): Promise<string[]>;
}

/** Turned into a system reminder on the next user message (spec: report what the user edited). */
export function userEditsReminder(paths: string[]): string {
  return `<system-reminder>\nThe user edited these files since your last turn: ${paths.join(", ")}. Read them again before changing them.\n</system-reminder>`;
}

export function createAgent(deps: AgentDeps): Agent {
  const now = deps.now ?? (() => Date.now());
  const services: AgentServices = {
    ...defaultServices({
      ...(deps.fetch && { fetch: deps.fetch }),
      ...(deps.codeIntelligence && { code: true }),
      ...(deps.onWorkspaceProblem && { onWorkspaceProblem: deps.onWorkspaceProblem }),
    }),
    ...deps.services,
  };
  const disposables = new DisposableStore();
  // Skills and MCP tools join the built-in set at every step (they change while the agent lives).
  const skills = disposables.add(new SkillCatalog(deps.runtime.fs, deps.userSkills, deps.onWorkspaceProblem));
  const builtinTools = services.tools;
  services.tools = (subagents) => [...builtinTools(subagents), ...skills.tools(), ...(deps.extraTools?.() ?? [])];
  const buildSystemPrompt = services.buildSystemPrompt;
  if (deps.extraInstructions) {
    const extra = deps.extraInstructions;
    services.buildSystemPrompt = (input) => buildSystemPrompt({ ...input, serverInstructions: [...(input.serverInstructions ?? []), ...extra()] });
  }
  const bus: AgentBus = disposables.add(new EventBus<AgentEvents>());
  const sessions = new SessionStates();
  const background = new Set<Promise<unknown>>();
  let agentsCache: Promise<AgentInfo[]> | undefined;

  const store = disposables.add(
    new SessionStore(deps.storage, bus, {
      onPersistError: (error, sessionId) => {
        deps.onPersistError?.(error);
        // Records that cannot be stored stop the turn instead of it going on in memory only.
        sessions.get(sessionId).turn?.controller.abort(store.persistFailure(sessionId));
      },
      onLoad: async ({ session, messages }) => {
        if (sessions.busy(session.id)) return;
        // A reply still streaming in another tab is not an interrupted one.
        if (deps.turns && (await deps.turns.runningElsewhere(session.id).catch(() => false))) return;
        closeInterrupted({ store, now }, messages);
      },
    }),
  );
  const permissions = new PermissionManager({
    now,
    onAsked: (request) => bus.emit("permission-asked", request),
    onReplied: (event) => bus.emit("permission-replied", event),
  });
  const questions = new QuestionManager(bus, now);
  const snapshots = disposables.add(new SnapshotService(deps.storage, deps.runtime.fs, now));
  // Custom agents live in the workspace; reload them when those files change.
  disposables.add(
    deps.runtime.fs.onDidChange((changes) => {
      if (!changes.some((c) => affectsAgents(c.path))) return;
      agentsCache = undefined;
      bus.emit("agents-changed", {});
    }),
  );

  const setStatus = (sessionId: string, status: SessionStatus) => {
    sessions.get(sessionId).status = status;
    bus.emit("session-status", { sessionId, status });
  };

  const env: SessionEnv = {
    storage: deps.storage,
    runtime: deps.runtime,
    ...(deps.codeIntelligence && { code: deps.codeIntelligence }),
    providers: deps.providers,
    bus,
    store,
    permissions,
    questions,
    snapshots,
    services,
    now,
    userRules: () => deps.userRules?.() ?? [],
    budget: () => deps.sessionBudget?.(),
    agents: () => (agentsCache ??= services.loadAgents(deps.runtime).catch((error: unknown) => {
      agentsCache = undefined;
      throw error;
    })),
    fileTimes: (sessionId) => sessions.get(sessionId).fileTimes,
    instructionsLoaded: (sessionId) => sessions.get(sessionId).instructions,
    setStatus,
    runSubagent: (caller: SubagentCaller, request: SubagentRequest) =>
      runSubagent(
        env,
        (childId, abort) => {
          // The parent's run waits for its children, so an aborted turn ends only once they have.
          const child = run(childId, abort);
          const callerTurn = sessions.get(caller.sessionId).turn;
          if (callerTurn) callerTurn.addChild(child);
          else track(child);
          return child;
        },
        caller,
        request,
      ),
  };

  /** Runs the loop of a session, one run at a time; `parent` links a subagent's abort. */
  function run(sessionId: string, parent?: AbortSignal): Promise<LoopResult> {
    const state = sessions.get(sessionId);
    if (state.turn) {
      return Promise.reject(
        new UserFacingError("The agent is still working in this session. Wait for it to finish or stop it first.", "session-busy"),
      );
    }
    const turn = new Turn(parent);
    if (state.abortRequested) {
      state.abortRequested = false;
      turn.controller.abort();
    }
    setStatus(sessionId, { type: "busy" });
    state.turn = turn;
    turn.done = (async () => {
      try {
        const result = await runLoop(env, sessionId, turn.signal);
        for (const task of result.background) track(task);
        // The turn is done only when its records are stored; if they cannot be, it says so.
        await store.flush(sessionId);
        const unsaved = store.persistFailure(sessionId);
        if (unsaved && !result.error) result.error = { name: unsaved.name, message: unsaved.message };
        return result;
      } finally {
        await turn.finish();
        state.turn = undefined;
        permissions.rejectAll(sessionId);
        questions.rejectAll(sessionId);
        await store.flush(sessionId);
        setStatus(sessionId, { type: "idle" });
      }
    })();
    return turn.done;
  }

  function track(task: Promise<unknown>): void {
    const settled = task.catch(() => undefined).finally(() => background.delete(settled));
    background.add(settled);
  }

  function refuseWhileBusy(sessionId: string, what: string): void {
    if (!sessions.busy(sessionId)) return;
    // A revert, its undo or a fork cannot be stopped (Stop has nothing to stop): it ends by itself.
    const applying = sessions.get(sessionId).applying;
    if (applying) throw new UserFacingError(`Cannot ${what} while ${applying} is being applied to this session. Try again in a moment.`, "session-busy");
    throw new UserFacingError(`Cannot ${what} while the agent is working in this session. Stop it first, then try again.`, "session-busy");
  }

  /**
   * Runs a change of the session's history (a turn, compaction, revert, fork) as the only one in it:
   * refused while another runs, marked busy meanwhile (so a message sent during a revert is refused
   * rather than started on the history the revert is changing), under the cross-tab lock.
   * `applying` names a change Stop cannot stop (a revert, its undo, a fork), for the refusals meanwhile.
   */
  async function exclusive<T>(sessionId: string, what: string, work: () => Promise<T>, applying?: string): Promise<T> {
    refuseWhileBusy(sessionId, what);
    const state = sessions.get(sessionId);
    state.starting = true;
    state.applying = applying;
    try {
      return await inTurn(sessionId, work);
    } finally {
      state.starting = false;
      state.applying = undefined;
      state.abortRequested = false;
      // Deleted elsewhere while this ran (dropDeletedSessions): nothing of it is kept here.
      if (store.isDeleted(sessionId)) sessions.delete(sessionId);
    }
  }

  async function resolveModel(session: SessionRecord, requested?: ModelRef): Promise<ModelRef> {
    const model = requested ?? session.model ?? deps.defaultModel?.();
    if (!model) {
      throw new UserFacingError("No model is selected. Add a provider in Settings and choose a model, then send your message again.", "no-model");
    }
    return model;
  }

  async function startTurn(sessionId: string, input: PromptInput): Promise<PromptResult> {
    await commitRevert(env, sessionId);
    await skills.ready();
    const session = await store.requireSession(sessionId);
    const model = await resolveModel(session, input.model);
    const agentName = input.agent ?? session.agent;
    const time = now();
    const message: UserMessageRecord = newUserMessage(
      {
        sessionId,
        agent: agentName,
        model,
        ...(input.system !== undefined && { system: input.system }),
        ...(input.tools && { tools: input.tools }),
        ...(input.reasoning && { reasoning: input.reasoning }),
      },
      time,
    );
    store.updateMessage(message);
    const part = () => newPartHeader({ sessionId, messageId: message.id }, now());
    const parts: PartRecord[] = [];
    if (session.userEdits && session.userEdits.length > 0) {
      parts.push({ ...part(), type: "text", text: userEditsReminder(session.userEdits), synthetic: true });
    }
    if (input.subtask) {
      parts.push({ ...part(), type: "subtask", prompt: input.text, description: input.subtask.description, agent: input.subtask.agent });
    } else {
      parts.push({ ...part(), type: "text", text: input.text });
    }
    for (const file of input.files ?? []) parts.push({ ...part(), type: "file", ...file });
    for (const p of parts) store.updatePart(p);
    // The user's edits named in this message are told; any noted meanwhile wait for the next one.
    const told = new Set(session.userEdits ?? []);
    await store.updateSession(sessionId, ({ userEdits, ...rest }) => {
      const untold = (userEdits ?? []).filter((path) => !told.has(path));
      return { ...rest, ...(untold.length > 0 && { userEdits: untold }), agent: agentName, model, updatedAt: now() };
    });
    await store.flush(sessionId);
    const unsaved = store.persistFailure(sessionId);
    if (unsaved) throw unsaved;

    const result = await run(sessionId);
    return {
      userMessageId: message.id,
      ...(result.assistant && { assistantMessageId: result.assistant.id }),
      ...((result.error ?? result.assistant?.error) && { error: result.error ?? result.assistant!.error! }),
    };
  }

  /** Runs a turn under the cross-tab lock, with what this tab has of the session reloaded first. */
  function inTurn<T>(sessionId: string, turn: () => Promise<T>): Promise<T> {
    if (!deps.turns) return turn();
    return deps.turns.run(sessionId, () => {
      // Another tab may have written to the session since it was loaded here.
      store.forget([sessionId], () => false);
      return turn();
    });
  }

  const agent: Agent = {
    bus,

    forgetChangedElsewhere(sessionIds) {
      return store.forget(sessionIds, (id) => sessions.busy(id));
    },

    async dropDeletedSessions(sessionIds) {
      // Every turn stops and every copy stops writing first; then the sweeps run.
      const dropped = sessionIds.flatMap((sessionId) => {
        const busy = sessions.busy(sessionId);
        if (!busy && !store.holds(sessionId)) return [];
        if (busy) agent.abort(sessionId);
        else sessions.delete(sessionId); // a busy one's state goes when its work ends (exclusive)
        permissions.clearSession(sessionId);
        return [{ sessionId, sweep: store.stopWritingDeleted(sessionId, busy) }];
      });
      const results = await Promise.allSettled(dropped.map((d) => d.sweep));
      const failed = results.flatMap((r) => (r.status === "rejected" ? [r.reason as unknown] : []));
      if (failed.length > 0) throw new Error(`What was written after the delete could not be removed: ${errorMessage(failed[0])}`);
      return dropped.map((d) => d.sessionId);
    },

    async createSession(input = {}) {
      const time = now();
      // opencode.json's "model" is a hint: used only when the user has chosen no default model.
      const model = input.model ?? deps.defaultModel?.() ?? (await loadOpencodeConfig(deps.runtime.fs).catch(() => undefined))?.config.model;
      const session: SessionRecord = newSession(
        {
          workspaceId: deps.runtime.fs.workspaceId,
          title: input.title ?? DEFAULT_SESSION_TITLE,
          agent: input.agent ?? DEFAULT_AGENT,
          ...(model && { model }),
        },
        time,
      );
      await store.createSession(session);
      return session;
    },

    async prompt(sessionId, input) {
      refuseWhileBusy(sessionId, "send a message");
      // The code service loads its project in the background while the model thinks, so the
      // turn's first edit gets its diagnostics warm (a no-op once started).
      deps.codeIntelligence?.warm?.();
      return exclusive(sessionId, "send a message", () => startTurn(sessionId, input));
    },

    abort(sessionId) {
      const state = sessions.get(sessionId);
      if (state.turn) state.turn.controller.abort();
      // Stop pressed while the turn is still being set up: abort it as soon as it starts.
      else if (state.starting) state.abortRequested = true;
    },

    status: (sessionId) => sessions.get(sessionId).status,
    replyPermission: (requestId, reply, message) => permissions.reply(requestId, reply, message),
    pendingPermissions: (sessionId) => permissions.pending(sessionId),
    replyQuestion: (requestId, answers) => questions.reply(requestId, answers),
    rejectQuestion: (requestId) => questions.reject(requestId),
    pendingQuestions: (sessionId) => questions.pending(sessionId),

    compact(sessionId) {
      return exclusive(sessionId, "compact the session", async () => {
        await commitRevert(env, sessionId);
        const session = await store.requireSession(sessionId);
        const model = await resolveModel(session);
        await queueCompaction(env, session, { auto: false, agent: session.agent, model });
        await run(sessionId);
      });
    },

    revert(sessionId, messageId) {
      return exclusive(sessionId, "revert", () => revertSession(env, sessionId, messageId), "a revert");
    },

    unrevert(sessionId) {
      return exclusive(sessionId, "undo the revert", () => unrevertSession(env, sessionId), "an undo of a revert");
    },

    fork(sessionId, messageId) {
      return exclusive(sessionId, "fork", () => forkSession(env, sessionId, messageId), "a fork");
    },

    async listSessions(options = {}) {
      const sessions = await deps.storage.sessions.list(deps.runtime.fs.workspaceId);
      return sessions
        .map((s) => store.cached(s.id) ?? s)
        .filter((s) => (options.includeChildren || s.parentId === undefined) && (options.includeArchived || !s.archived));
    },

    getSession: (sessionId) => store.getSession(sessionId),

    async getMessages(sessionId) {
      const session = await store.getSession(sessionId);
      if (!session) return [];
      return visibleToUser(session, await store.messages(sessionId));
    },

    async renameSession(sessionId, title) {
      await store.requireSession(sessionId);
      const trimmed = title.trim();
      if (trimmed === "") throw new UserFacingError("A session title cannot be empty.", "invalid-title");
      await store.updateSession(sessionId, (session) => ({ ...session, title: trimmed.slice(0, 200), updatedAt: now() }));
      await store.flush(sessionId);
    },

    async setArchived(sessionId, archived) {
      await store.requireSession(sessionId);
      await store.updateSession(sessionId, (session) => ({ ...session, archived, updatedAt: now() }));
      await store.flush(sessionId);
    },

    async deleteSession(sessionId) {
      refuseWhileBusy(sessionId, "delete the session");
      permissions.clearSession(sessionId);
      sessions.delete(sessionId);
      await store.deleteSession(sessionId);
    },

    async noteUserEdits(sessionId, paths) {
      await store.requireSession(sessionId);
      await store.updateSession(sessionId, (session) => ({ ...session, userEdits: [...new Set([...(session.userEdits ?? []), ...paths])].sort() }));
      await store.flush(sessionId);
    },

    listAgents: () => env.agents(),
    defaultAgent: DEFAULT_AGENT,

    async whenIdle() {
      while (sessions.turns().length > 0 || background.size > 0) {
        await Promise.all([...sessions.turns().map((turn) => turn.done.catch(() => undefined)), ...background]);
      }
    },

    flush: () => store.flush(),

    dispose() {
      for (const turn of sessions.turns()) turn.controller.abort();
      disposables.dispose();
      deps.codeIntelligence?.dispose?.();
    },
  };
  return agent;
}
