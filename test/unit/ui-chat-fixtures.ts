// Builders and a scripted fake agent for the chat UI tests (not a test file itself).
import { EventBus, newId } from "../../src/base";
import { RECORD_VERSION, emptyUsage, type AssistantMessageRecord, type PartRecord, type SessionRecord, type UserMessageRecord } from "../../src/storage";
import type { AgentEvents, AgentSummary, ChatAgent, MessageWithParts, PromptInput } from "../../src/ui/chat/agent-port";

export function session(overrides: Partial<SessionRecord> = {}): SessionRecord {
  const now = overrides.updatedAt ?? 1_000;
  return {
    v: RECORD_VERSION,
    id: overrides.id ?? newId("ses"),
    workspaceId: "ws",
    title: "New session",
    createdAt: now,
    updatedAt: now,
    agent: "build",
    permission: [],
    tokens: emptyUsage(),
    cost: 0,
    todos: [],
    ...overrides,
  };
}

export function userMessage(sessionId: string, overrides: Partial<UserMessageRecord> = {}): UserMessageRecord {
  return { v: RECORD_VERSION, id: overrides.id ?? newId("msg"), sessionId, role: "user", createdAt: 1_000, agent: "build", ...overrides };
}

export function assistantMessage(sessionId: string, parentId: string, overrides: Partial<AssistantMessageRecord> = {}): AssistantMessageRecord {
  return {
    v: RECORD_VERSION,
    id: overrides.id ?? newId("msg"),
    sessionId,
    role: "assistant",
    createdAt: 1_000,
    parentId,
    agent: "build",
    model: { providerId: "openai", modelId: "gpt-5" },
    tokens: emptyUsage(),
    cost: 0,
    ...overrides,
  };
}

type PartBody = PartRecord extends infer P ? (P extends PartRecord ? Omit<P, "v" | "id" | "sessionId" | "messageId"> : never) : never;

export function part(message: { id: string; sessionId: string }, body: PartBody, id: string = newId("prt")): PartRecord {
  return { v: RECORD_VERSION, id, sessionId: message.sessionId, messageId: message.id, ...body } as PartRecord;
}

/** A fake agent facade: a real EventBus, recorded calls, canned answers. */
export class FakeAgent implements ChatAgent {
  readonly bus = new EventBus<AgentEvents>();
  readonly calls: { method: string; args: unknown[] }[] = [];
  sessions: SessionRecord[] = [];
  messages = new Map<string, MessageWithParts[]>();
  agents: AgentSummary[] = [
    { name: "build", description: "Builds", mode: "primary", builtIn: true },
    { name: "plan", description: "Plans", mode: "primary", builtIn: true },
    { name: "general", description: "Sub", mode: "subagent", builtIn: true },
  ];
  /** Resolves getMessages when set; otherwise answers at once. */
  gate?: Promise<void>;

  private record(method: string, ...args: unknown[]): void {
    this.calls.push({ method, args });
  }

  callsOf(method: string): unknown[][] {
    return this.calls.filter((c) => c.method === method).map((c) => c.args);
  }

  async createSession(input?: { title?: string }): Promise<SessionRecord> {
    this.record("createSession", input);
    const created = session({ title: input?.title ?? "New session" });
    this.sessions.push(created);
    this.bus.emit("session-created", { session: created });
    return created;
  }
  async prompt(sessionId: string, input: PromptInput): Promise<void> {
    this.record("prompt", sessionId, input);
  }
  abort(sessionId: string): void {
    this.record("abort", sessionId);
  }
  replyPermission(requestId: string, reply: string, message?: string): void {
    this.record("replyPermission", requestId, reply, message);
  }
  replyQuestion(requestId: string, answers: string[][]): void {
    this.record("replyQuestion", requestId, answers);
  }
  rejectQuestion(requestId: string): void {
    this.record("rejectQuestion", requestId);
  }
  async compact(sessionId: string): Promise<void> {
    this.record("compact", sessionId);
  }
  async revert(sessionId: string, messageId: string): Promise<void> {
    this.record("revert", sessionId, messageId);
  }
  async unrevert(sessionId: string): Promise<void> {
    this.record("unrevert", sessionId);
  }
  async fork(sessionId: string, messageId?: string): Promise<SessionRecord> {
    this.record("fork", sessionId, messageId);
    const forked = session({ title: "Fork" });
    this.bus.emit("session-created", { session: forked });
    return forked;
  }
  async listSessions(): Promise<SessionRecord[]> {
    return this.sessions;
  }
  async getSession(sessionId: string): Promise<SessionRecord | undefined> {
    return this.sessions.find((s) => s.id === sessionId);
  }
  async getMessages(sessionId: string): Promise<MessageWithParts[]> {
    const snapshot = structuredClone(this.messages.get(sessionId) ?? []);
    if (this.gate) await this.gate;
    return snapshot;
  }
  readonly defaultAgent = "build";
  async listAgents(): Promise<AgentSummary[]> {
    return this.agents;
  }
  async renameSession(sessionId: string, title: string): Promise<void> {
    this.record("renameSession", sessionId, title);
  }
  async deleteSession(sessionId: string): Promise<void> {
    this.record("deleteSession", sessionId);
  }
}

/** A frame scheduler the test advances by hand. */
export class ManualFrames {
  private callbacks = new Map<number, () => void>();
  private next = 1;
  requested = 0;
  request = (callback: () => void): unknown => {
    this.requested++;
    const id = this.next++;
    this.callbacks.set(id, callback);
    return id;
  };
  cancel = (handle: unknown): void => {
    this.callbacks.delete(handle as number);
  };
  get pending(): number {
    return this.callbacks.size;
  }
  runFrame(): void {
    const callbacks = [...this.callbacks.values()];
    this.callbacks.clear();
    for (const callback of callbacks) callback();
  }
}
