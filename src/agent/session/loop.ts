// The agent loop (docs/agent.md, "The loop"): one user turn runs model calls until the model stops, the user stops
// it, a permission is rejected, an error ends it or the agent's step limit is reached; queued
// compactions and subtasks run in between, and overflowing context is compacted automatically.
import { newAssistantMessage, newPart } from "../../storage";
import { newId } from "../../base";
import {
  
  type AssistantMessageRecord,
  type MessageError,
  type ModelRef,
  type PartRecord,
  type SessionRecord,
  type UserMessageRecord,
} from "../../storage";
import { DEFAULT_AGENT } from "../agents";
import { DEFAULT_RULES, decide, disabledTools, mergeRules, networkRules, type Rule } from "../permission";
import type { ToolDefinition } from "../tools/tool";
import { WebSearchGate } from "./web-search";
import { budgetExceeded } from "./budget";
import { nextRequestTokens, queueCompaction, runCompaction } from "./compaction";
import type { SessionEnv } from "./env";
import { compactionPart, hasUnfinishedTool, isTurnStart, lastAssistant, lastUser, visibleHistory } from "./history";
import { toModelMessages } from "./model-messages";
import { fitToolResults } from "./fit-context";
import { PAUSED_FINISH, processStep } from "./processor";
import { prune } from "./prune";
import type { AgentInfo, SubagentSummary } from "./services";
import { SessionStorageError, type MessageWithParts } from "./store";
import { generateTitle, hasDefaultTitle } from "./title";
import { isOverflow, requestOverheadTokens, usableContext } from "./usage";

/** Automatic compactions allowed in one turn before the agent gives up instead of looping. */
export const MAX_COMPACTIONS_PER_TURN = 3;

export interface LoopResult {
  /** The last assistant message written by this run. */
  assistant?: AssistantMessageRecord;
  error?: MessageError;
  /** Background work started by the run (the title request); tests and benchmarks may await it. */
  background: Promise<unknown>[];
}

export function findAgent(agents: AgentInfo[], name: string | undefined): AgentInfo {
  const agent = agents.find((a) => a.name === name) ?? agents.find((a) => a.name === DEFAULT_AGENT) ?? agents[0];
  if (!agent) throw new Error("No agents are defined; webcode cannot run a turn.");
  return agent;
}

/** The subagents the task tool may start: every visible agent that is not primary-only. */
export function subagentsOf(agents: AgentInfo[]): SubagentSummary[] {
  return agents.filter((a) => a.mode !== "primary" && !a.hidden).map((a) => ({ name: a.name, description: a.description }));
}

/**
 * Defaults, the user's config, the agent's rules, the user's network rules again (the user's choice
 * for network permissions is final over an agent's), then the session's own overrides (last match wins).
 */
export function rulesFor(env: SessionEnv, agent: AgentInfo, session: SessionRecord): Rule[] {
  const user = env.userRules();
  return mergeRules(DEFAULT_RULES, user, agent.permission, networkRules(user), session.permission);
}

/** Rules from workspace agent files: they only tighten what rulesFor decides (decide()). */
export function limitsFor(agent: AgentInfo): Rule[] {
  return agent.workspacePermission?.slice() ?? [];
}

/** The tools offered for one call: the model's edit family, minus denied and per-turn disabled ones. */
export function resolveTools(
  env: SessionEnv,
  input: {
    modelId: string;
    rules: Rule[];
    limits?: Rule[];
    toggles?: Record<string, boolean>;
    supportsTools: boolean;
    subagents: SubagentSummary[];
    /** Whether the code tool has anything to answer about (TS/JS files); default true. */
    scripts?: boolean;
  },
): ToolDefinition[] {
  if (!input.supportsTools) return [];
  const patch = env.services.prefersApplyPatch(input.modelId);
  const candidates = env.services
    .tools(input.subagents)
    .filter((tool) => (patch ? tool.id !== "edit" && tool.id !== "write" : tool.id !== "apply_patch"))
    .filter((tool) => tool.id !== "code" || input.scripts !== false);
  const disabled = disabledTools(
    candidates.map((t) => t.id),
    input.rules,
    input.limits,
  );
  // Tools asking a shared permission with their name as the pattern (MCP tools: "mcp", "<server>_<tool>")
  // are not offered when a rule denies that name (`{"mcp": {"github_*": "deny"}}`).
  const deniedByName = (tool: ToolDefinition) => tool.permission !== undefined && decide(tool.permission, tool.id, input.rules, input.limits) === "deny";
  return candidates.filter((tool) => !disabled.has(tool.id) && input.toggles?.[tool.id] !== false && !deniedByName(tool));
}

function modelOf(user: UserMessageRecord, session: SessionRecord, agent: AgentInfo): ModelRef {
  const model = user.model ?? agent.model ?? session.model;
  if (!model) throw new Error("No model is selected for this session; choose one in the model picker, then send your message again.");
  return model;
}

/** Whether anything precedes the current turn's user message: otherwise compaction has nothing to summarise. */
function hasEarlierTurns(history: readonly MessageWithParts[], userId: string): boolean {
  return history.some((m) => m.info.id < userId);
}

/** Tool calls in assistant messages answering `userId` (the current turn), oldest first. */
function turnCalls(history: MessageWithParts[], userId: string): Array<{ tool: string; input: unknown }> {
  const calls: Array<{ tool: string; input: unknown }> = [];
  for (const message of history) {
    if (message.info.role !== "assistant" || message.info.parentId !== userId) continue;
    for (const part of message.parts) if (part.type === "tool") calls.push({ tool: part.tool, input: part.state.input });
  }
  return calls;
}

function userText(message: MessageWithParts): string {
  return message.parts
    .filter((p) => p.type === "text" && !p.synthetic)
    .map((p) => (p.type === "text" ? p.text : ""))
    .join("\n");
}

export async function runLoop(env: SessionEnv, sessionId: string, abort: AbortSignal): Promise<LoopResult> {
  const result: LoopResult = { background: [] };
  let steps = 0;
  let compactions = 0;
  const agents = await env.agents();
  const webSearch = new WebSearchGate(env);

  while (!abort.aborted) {
    if (stoppedByStorage(env, sessionId, result)) break;
    const session = await env.store.requireSession(sessionId);
    const all = await env.store.messages(sessionId);
    const history = visibleHistory(all);
    const user = lastUser(history);
    if (!user || user.info.role !== "user") break;
    const userInfo = user.info;
    const newest = lastAssistant(history);

    // 2. Done: the newest reply answers the newest user message and finished without pending tools.
    if (
      newest &&
      newest.info.role === "assistant" &&
      newest.info.id > userInfo.id &&
      newest.info.completedAt !== undefined &&
      newest.info.finish !== "tool-calls" &&
      newest.info.finish !== PAUSED_FINISH &&
      !hasUnfinishedTool(newest)
    ) {
      break;
    }
    const answered = history.some((m) => m.info.role === "assistant" && m.info.parentId === userInfo.id);

    // 3. Queued work: a compaction or a subtask the user asked for.
    if (!answered && compactionPart(user)) {
      if (++compactions > MAX_COMPACTIONS_PER_TURN) {
        result.error = {
          name: "ContextOverflowError",
          message: `The conversation still does not fit the model's context after ${MAX_COMPACTIONS_PER_TURN} compactions.`,
          action: "Start a new session, or switch to a model with a larger context window.",
        };
        break;
      }
      const agent = findAgent(agents, "compaction");
      const outcome = await runCompaction(env, { session, request: user as MessageWithParts & { info: UserMessageRecord }, history, agent, abort });
      if (outcome === "failed" || outcome === "aborted") break;
      continue;
    }
    const subtask = user.parts.find((p) => p.type === "subtask");
    if (!answered && subtask?.type === "subtask") {
      result.assistant = await runSubtask(env, { session, user: userInfo, subtask, agents, abort });
      continue;
    }

    const agent = findAgent(agents, userInfo.agent);
    const modelRef = modelOf(userInfo, session, agent);
    const modelInfo = env.providers.modelInfo(modelRef);

    // 4. The last finished call filled the context: compact before the next one.
    const finished = lastAssistant(history, true);
    if (finished && finished.info.role === "assistant" && !finished.info.summary) {
      const info = env.providers.modelInfo(finished.info.model);
      if (isOverflow(finished.info.tokens, info) || finished.info.finish === "context-overflow") {
        await queueCompaction(env, session, { auto: true, agent: userInfo.agent, model: modelRef });
        continue;
      }
    }

    // 5. One model call.
    steps++;
    const isLastStep = agent.steps !== undefined && steps >= agent.steps;
    const rules = rulesFor(env, agent, session);
    const limits = limitsFor(agent);
    // The code tool only where it can be used (docs/agent.md, "Tools"): a workspace with TS/JS files.
    const scripts = env.code?.hasScripts ? await env.code.hasScripts().catch(() => true) : true;
    const tools = resolveTools(env, {
      scripts,
      modelId: modelRef.modelId,
      rules,
      limits,
      supportsTools: modelInfo?.capabilities.tools ?? true,
      subagents: subagentsOf(agents),
      ...(userInfo.tools && { toggles: userInfo.tools }),
    });
    // The provider's own web search, where the user turned it on (asks once per turn by default).
    const providerTools = await webSearch.tools({
      sessionId,
      turnId: userInfo.id,
      model: modelRef,
      rules,
      limits,
      supportsTools: modelInfo?.capabilities.tools ?? true,
      ...(userInfo.tools && { toggles: userInfo.tools }),
      abort,
    });
    // Stopped while the user was asked: no reply was started, so none is left behind.
    if (abort.aborted) break;
    const reminders = [
      ...(agent.name === "plan" ? [env.services.prompts.plan] : []),
      ...(isLastStep ? [env.services.prompts.maxSteps] : []),
    ];
    // The reminders change between steps (the last step's): they follow the system prompt apart, so
    // that the prompt stays a prefix the provider can cache (docs/agent.md, "Prompt caching").
    const system = await env.services.buildSystemPrompt({
      agent,
      model: modelRef,
      modelName: modelInfo?.name ?? modelRef.modelId,
      runtime: env.runtime,
      date: new Date(env.now()),
      ...(userInfo.system !== undefined && { userSystem: userInfo.system }),
    });
    const systemTail = reminders.map((r) => r.trim()).filter(Boolean).join("\n\n");
    const systemChars = system.length + systemTail.length;
    // 4b. The request about to be sent would not fit: compact first. The estimate counts the system
    // prompt and the tool schemas (every request carries them) where no provider count covers them.
    const nextTokens = nextRequestTokens(history, requestOverheadTokens(`${system}${systemTail}`, tools));
    if (modelInfo && modelInfo.context > 0 && nextTokens >= usableContext(modelInfo) && hasEarlierTurns(history, userInfo.id)) {
      steps--;
      await queueCompaction(env, session, { auto: true, agent: userInfo.agent, model: modelRef });
      continue;
    }
    // 4c. The user's budget for the session: stop before a call that would pass it. (A subagent's
    // costs roll up into its parent, whose own next call is checked.)
    const overBudget = session.parentId === undefined ? budgetExceeded(session, nextTokens, modelInfo, env.budget()) : undefined;
    if (overBudget) {
      const stopped: AssistantMessageRecord = newAssistantMessage(
        { sessionId, completedAt: env.now(), parentId: userInfo.id, agent: agent.name, model: modelRef, finish: "error", error: overBudget },
        env.now(),
      );
      env.store.updateMessage(stopped);
      result.assistant = stopped;
      result.error = overBudget;
      break;
    }
    // Resolved before the reply exists: a provider that cannot be built (no key, no URL) fails the
    // prompt with its message instead of leaving an empty reply behind.
    const languageModel = env.providers.languageModel(modelRef);
    const assistant: AssistantMessageRecord = newAssistantMessage({ sessionId, parentId: userInfo.id, agent: agent.name, model: modelRef }, env.now());
    env.store.updateMessage(assistant);

    if (steps === 1 && session.parentId === undefined && hasDefaultTitle(session) && all.filter(isTurnStart).length === 1) {
      result.background.push(
        generateTitle(env, { sessionId, model: modelRef, userText: userText(user), agent: agents.find((a) => a.name === "title"), abort }),
      );
    }

    const supportsImages = modelInfo?.capabilities.images ?? false;
    const call = env.providers.callOptions?.(modelRef, { purpose: "turn", sessionId, ...(userInfo.reasoning && { effort: userInfo.reasoning }) });
    const sampling = call?.sampling ?? modelInfo?.capabilities.temperature !== false;
    const step = await processStep(env, {
      session,
      assistant,
      agent,
      subagents: subagentsOf(agents),
      model: languageModel,
      modelInfo,
      system,
      ...(systemTail && { systemTail }),
      messages: modelInfo
        ? fitToolResults(toModelMessages(history, { supportsImages, model: modelRef, providerToolResults: call?.providerToolResults ?? true }), {
            contextTokens: modelInfo.context,
            reserveTokens: modelInfo.output,
            fixedChars: systemChars + tools.reduce((sum, t) => sum + t.description.length, 0),
          })
        : toModelMessages(history, { supportsImages, model: modelRef, providerToolResults: call?.providerToolResults ?? true }),
      tools,
      ...(providerTools && { providerTools }),
      rules,
      limits,
      abort,
      snapshots: true,
      earlierCalls: () => turnCalls(history, userInfo.id),
      // Reasoning models (and Anthropic while thinking) refuse sampling options.
      ...(sampling && agent.temperature !== undefined && { temperature: agent.temperature }),
      ...(sampling && agent.topP !== undefined && { topP: agent.topP }),
      ...(call?.reasoning !== undefined && { reasoning: call.reasoning }),
      ...(call?.providerOptions && { providerOptions: call.providerOptions }),
      ...(call?.cacheBreakpoint && { cacheBreakpoint: call.cacheBreakpoint }),
    });
    result.assistant = step.assistant;
    if (step.error) result.error = step.error;
    if (stoppedByStorage(env, sessionId, result, step.storageFailure)) break;

    // 7. What next.
    if (step.outcome === "stop") break;
    if (step.outcome === "compact") {
      if (isLastStep) {
        // Compacting would lead to one more model call than the agent's step limit allows: stop
        // here; the next prompt compacts first (step 4 sees the overflowed reply).
        result.error = {
          name: "StepLimitError",
          message: `The agent reached its limit of ${agent.steps} steps just as the conversation filled the model's context.`,
          action: "Send a message to continue: the conversation is summarised first.",
        };
        result.assistant = { ...step.assistant, error: result.error };
        env.store.updateMessage(result.assistant);
        break;
      }
      // The refused call left an empty reply behind: not worth keeping (the summary takes over).
      if (!hasContent(env.store.partsOf(sessionId, step.assistant.id))) {
        await env.store.removeMessages(sessionId, [step.assistant.id]);
        result.assistant = undefined;
      }
      await queueCompaction(env, session, { auto: true, agent: userInfo.agent, model: modelRef });
      continue;
    }
    if (isLastStep) break;
  }

  if (!abort.aborted) await prune(env, sessionId);
  await env.store.flush(sessionId);
  return result;
}

/** Whether a reply holds anything: text, reasoning or a tool call (step markers and retries do not count). */
function hasContent(parts: PartRecord[]): boolean {
  return parts.some((p) => ((p.type === "text" || p.type === "reasoning") && p.text.trim() !== "") || p.type === "tool");
}

/**
 * The session's records could not be stored, or a tool's change to the files was refused (storage
 * full): the turn stops with that message rather than going on (in memory only, or with every
 * later write failing too). The reply, if any, says why it ended.
 */
function stoppedByStorage(env: SessionEnv, sessionId: string, result: LoopResult, toolFailure?: Error): boolean {
  const failure = env.store.persistFailure(sessionId);
  if (!failure && !toolFailure) return false;
  result.error = {
    name: failure || toolFailure instanceof SessionStorageError ? "SessionStorageError" : "FileStorageError",
    message:
      failure?.message ??
      (toolFailure instanceof SessionStorageError ? toolFailure.message : `The agent stopped because a change to the files could not be saved: ${toolFailure!.message}`),
    action: "Free space in Settings → Storage (delete old sessions, snapshots or workspaces), then send your message again.",
  };
  if (result.assistant) {
    result.assistant = { ...result.assistant, finish: "error", error: result.error };
    env.store.updateMessage(result.assistant);
  }
  return true;
}

/** A subtask part the user queued: run the subagent as if the primary agent had called task. */
async function runSubtask(
  env: SessionEnv,
  input: {
    session: SessionRecord;
    user: UserMessageRecord;
    subtask: { prompt: string; description: string; agent: string };
    agents: AgentInfo[];
    abort: AbortSignal;
  },
): Promise<AssistantMessageRecord> {
  const { session, user, subtask, abort } = input;
  const agent = findAgent(input.agents, user.agent);
  const model = modelOf(user, session, agent);
  let assistant: AssistantMessageRecord = newAssistantMessage({ sessionId: session.id, parentId: user.id, agent: agent.name, model }, env.now());
  env.store.updateMessage(assistant);
  const callId = newId("call", env.now());
  const start = env.now();
  const toolInput = { description: subtask.description, prompt: subtask.prompt, subagent_type: subtask.agent };
  let part: Extract<PartRecord, { type: "tool" }> = newPart(
    { sessionId: session.id, messageId: assistant.id },
    { type: "tool", callId, tool: "task", state: { status: "running", input: toolInput, start } },
    env.now(),
  );
  env.store.updatePart(part);
  try {
    const result = await env.runSubagent(
      {
        sessionId: session.id,
        messageId: assistant.id,
        callId,
        agent,
        rules: rulesFor(env, agent, session),
        limits: limitsFor(agent),
        abort,
        update: (update) => {
          if (part.state.status !== "running") return;
          part = {
            ...part,
            state: {
              ...part.state,
              ...(update.title !== undefined && { title: update.title }),
              ...(update.metadata && { metadata: { ...part.state.metadata, ...update.metadata } }),
            },
          };
          env.store.updatePart(part);
        },
      },
      { description: subtask.description, prompt: subtask.prompt, subagentType: subtask.agent },
    );
    env.store.updatePart({
      ...part,
      state: {
        status: "completed",
        input: toolInput,
        output: `${result.text}\n\n<task_metadata>\nsession_id: ${result.sessionId}\n</task_metadata>`,
        title: subtask.description,
        metadata: { ...(part.state.status === "running" ? part.state.metadata : {}), sessionId: result.sessionId },
        start,
        end: env.now(),
      },
    });
    assistant = { ...assistant, completedAt: env.now(), finish: "tool-calls" };
  } catch (error) {
    const message = abort.aborted ? "aborted" : error instanceof Error ? error.message : String(error);
    env.store.updatePart({ ...part, state: { status: "error", input: toolInput, error: message, start, end: env.now() } });
    assistant = {
      ...assistant,
      completedAt: env.now(),
      finish: abort.aborted ? "aborted" : "error",
      error: abort.aborted ? { name: "AbortedError", message: "Stopped by the user." } : { name: "SubtaskError", message },
    };
  }
  env.store.updateMessage(assistant);
  await env.store.flush(session.id);
  return assistant;
}
