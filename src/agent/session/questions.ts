// Questions the model asks the user through the question tool: published as `question-asked`,
// answered with replyQuestion, rejected by the user or withdrawn when the turn is aborted.
import { newId } from "../../base";
import type { Question } from "../tools/tool";
import type { AgentBus, PendingQuestion } from "./events";

/** The user dismissed the question; like a rejected permission it stops the turn. */
export class QuestionRejectedError extends Error {
  constructor() {
    super("The user dismissed the question without answering. Do not ask again; wait for the user's next message.");
    this.name = "QuestionRejectedError";
  }
}

interface Waiter {
  pending: PendingQuestion;
  resolve(answers: string[][]): void;
  reject(error: unknown): void;
  cleanup(): void;
}

export class QuestionManager {
  private readonly waiters = new Map<string, Waiter>();

  constructor(
    private readonly bus: AgentBus,
    private readonly now: () => number,
  ) {}

  ask(input: { sessionId: string; questions: Question[]; callId?: string; messageId?: string; signal?: AbortSignal }): Promise<string[][]> {
    if (input.signal?.aborted) return Promise.reject(input.signal.reason);
    const pending: PendingQuestion = {
      id: newId("que"),
      sessionId: input.sessionId,
      questions: input.questions,
      createdAt: this.now(),
      ...(input.callId !== undefined && { callId: input.callId }),
      ...(input.messageId !== undefined && { messageId: input.messageId }),
    };
    return new Promise<string[][]>((resolve, reject) => {
      const onAbort = () => {
        if (!this.waiters.delete(pending.id)) return;
        this.bus.emit("question-replied", { sessionId: pending.sessionId, requestId: pending.id, rejected: true });
        reject(input.signal?.reason);
      };
      input.signal?.addEventListener("abort", onAbort, { once: true });
      this.waiters.set(pending.id, {
        pending,
        resolve,
        reject,
        cleanup: () => input.signal?.removeEventListener("abort", onAbort),
      });
      this.bus.emit("question-asked", pending);
    });
  }

  /** Answers a pending question. Returns false when there is none with this id. */
  reply(requestId: string, answers: string[][]): boolean {
    const waiter = this.take(requestId);
    if (!waiter) return false;
    this.bus.emit("question-replied", { sessionId: waiter.pending.sessionId, requestId, answers });
    waiter.resolve(answers);
    return true;
  }

  reject(requestId: string): boolean {
    const waiter = this.take(requestId);
    if (!waiter) return false;
    this.bus.emit("question-replied", { sessionId: waiter.pending.sessionId, requestId, rejected: true });
    waiter.reject(new QuestionRejectedError());
    return true;
  }

  rejectAll(sessionId: string): void {
    for (const pending of this.pending(sessionId)) this.reject(pending.id);
  }

  pending(sessionId?: string): PendingQuestion[] {
    const all = [...this.waiters.values()].map((w) => w.pending);
    return sessionId === undefined ? all : all.filter((q) => q.sessionId === sessionId);
  }

  private take(requestId: string): Waiter | undefined {
    const waiter = this.waiters.get(requestId);
    if (!waiter) return undefined;
    this.waiters.delete(requestId);
    waiter.cleanup();
    return waiter;
  }
}
