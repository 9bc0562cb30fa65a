// Subagents (docs/agent.md, "Subagents"): the task tool runs a subagent in a child session (parentId = caller) with
// its own rules plus the caller's denies, and no task or todowrite inside (no nesting). The
// child's tool progress shows live in the caller's task part; aborting the caller aborts the child;
// `taskId` resumes an earlier child. Costs roll up as the child's steps finish (processor.ts).
import { newPart, newSession, newUserMessage } from "../../storage";
import { abortError } from "../../base";
import { type PartRecord, type SessionRecord, type UserMessageRecord } from "../../storage";
import type { Rule } from "../permission";
import type { SubagentRequest, SubagentResult } from "../tools/tool";
import type { SessionEnv, SubagentCaller } from "./env";
import type { LoopResult } from "./loop";

/** Tools a subagent may never use: no nested subagents, no rewriting the parent's todo list. */
export const SUBAGENT_DENIED_TOOLS = ["task", "todowrite"];

export interface ChildProgress {
  callId: string;
  tool: string;
  status: string;
  title?: string;
}

/** Runs a child session to completion; the facade registers it as busy and abortable. */
export type RunChild = (sessionId: string, abort: AbortSignal) => Promise<LoopResult>;

export function childRules(parentRules: Rule[]): Rule[] {
  return [
    ...parentRules.filter((rule) => rule.action === "deny"),
    ...SUBAGENT_DENIED_TOOLS.map((permission): Rule => ({ permission, pattern: "*", action: "deny" })),
  ];
}

export async function runSubagent(
  env: SessionEnv,
  runChild: RunChild,
  caller: SubagentCaller,
  request: SubagentRequest,
): Promise<SubagentResult> {
  const agents = await env.agents();
  const agent = agents.find((a) => a.name === request.subagentType && a.mode !== "primary" && !a.hidden);
  if (!agent) {
    const available = agents.filter((a) => a.mode !== "primary" && !a.hidden).map((a) => a.name);
    throw new Error(`There is no subagent "${request.subagentType}". Use one of: ${available.join(", ") || "(none)"}.`);
  }
  const parent = await env.store.requireSession(caller.sessionId);
  const parentMessage = await env.store.message(caller.sessionId, caller.messageId);
  const model = agent.model ?? (parentMessage?.info.role === "assistant" ? parentMessage.info.model : parent.model);

  let child: SessionRecord;
  if (request.taskId) {
    const existing = await env.store.getSession(request.taskId);
    if (!existing || existing.parentId !== parent.id) {
      throw new Error(`There is no subagent session "${request.taskId}" in this session. Leave taskId out to start a new one.`);
    }
    child = existing;
  } else {
    const now = env.now();
    child = newSession(
      {
        workspaceId: parent.workspaceId,
        title: `${request.description} (@${agent.name} subagent)`,
        parentId: parent.id,
        agent: agent.name,
        ...(model && { model }),
        permission: childRules([...caller.rules, ...(caller.limits ?? [])]),
      },
      now,
    );
    await env.store.createSession(child);
  }

  const user: UserMessageRecord = newUserMessage({ sessionId: child.id, agent: agent.name, ...(model && { model }) }, env.now());
  env.store.updateMessage(user);
  env.store.updatePart(newPart({ sessionId: child.id, messageId: user.id }, { type: "text", text: request.prompt }, env.now()));

  // Live progress: a summary of the child's tool calls in the caller's task part.
  const progress = new Map<string, ChildProgress>();
  const publish = () =>
    caller.update({ title: request.description, metadata: { sessionId: child.id, summary: [...progress.values()] } });
  publish();
  const listener = env.bus.on("part-updated", ({ part }) => {
    if (part.sessionId !== child.id || part.type !== "tool") return;
    const title = part.state.status === "completed" || part.state.status === "running" ? part.state.title : undefined;
    progress.set(part.callId, { callId: part.callId, tool: part.tool, status: part.state.status, ...(title && { title }) });
    publish();
  });

  const controller = new AbortController();
  const onAbort = () => controller.abort(caller.abort.reason);
  if (caller.abort.aborted) onAbort();
  else caller.abort.addEventListener("abort", onAbort, { once: true });
  try {
    const result = await runChild(child.id, controller.signal);
    if (controller.signal.aborted) throw abortError("The subagent was stopped.");
    if (result.error) throw new Error(`The ${agent.name} subagent failed: ${result.error.message}`);
    const text = finalText(await env.store.messages(child.id));
    return { sessionId: child.id, text };
  } finally {
    caller.abort.removeEventListener("abort", onAbort);
    listener.dispose();
  }
}

/** The text of the child's last reply (its answer to the caller). */
function finalText(messages: Array<{ info: { role: string }; parts: PartRecord[] }>): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.info.role !== "assistant") continue;
    const text = message.parts
      .filter((p): p is Extract<PartRecord, { type: "text" }> => p.type === "text")
      .map((p) => p.text)
      .join("")
      .trim();
    if (text) return text;
  }
  return "(the subagent finished without a text reply)";
}
