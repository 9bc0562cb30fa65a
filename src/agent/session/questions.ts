// Questions the model asks the user through the question tool: published as `question-asked`,
// answered with replyQuestion, rejected by the user or withdrawn when the turn is aborted.
import { newId } from "../../base";
import { PendingRequests } from "../pending-requests";
import type { Question } from "../tools/tool";
import type { AgentBus, PendingQuestion } from "./events";

/** The user dismissed the question; like a rejected permission it stops the turn. */
export class QuestionRejectedError extends Error {
  constructor() {
    super("The user dismissed the question without answering. Do not ask again; wait for the user's next message.");
    this.name = "QuestionRejectedError";
  }
}

export class QuestionManager {
  private readonly requests = new PendingRequests<PendingQuestion, string[][]>();

  constructor(
    private readonly bus: AgentBus,
    private readonly now: () => number,
  ) {}

  ask(input: { sessionId: string; questions: Question[]; callId?: string; messageId?: string; signal?: AbortSignal }): Promise<string[][]> {
    const pending: PendingQuestion = {
      id: newId("que"),
      sessionId: input.sessionId,
      questions: input.questions,
      createdAt: this.now(),
      ...(input.callId !== undefined && { callId: input.callId }),
      ...(input.messageId !== undefined && { messageId: input.messageId }),
    };
    const answer = this.requests.open(pending, undefined, input.signal, () =>
      this.bus.emit("question-replied", { sessionId: pending.sessionId, requestId: pending.id, rejected: true }),
    );
    if (!input.signal?.aborted) this.bus.emit("question-asked", pending);
    return answer;
  }

  /** Answers a pending question. Returns false when there is none with this id. */
  reply(requestId: string, answers: string[][]): boolean {
    const waiter = this.requests.take(requestId);
    if (!waiter) return false;
    this.bus.emit("question-replied", { sessionId: waiter.pending.sessionId, requestId, answers });
    waiter.resolve(answers);
    return true;
  }

  reject(requestId: string): boolean {
    const waiter = this.requests.take(requestId);
    if (!waiter) return false;
    this.bus.emit("question-replied", { sessionId: waiter.pending.sessionId, requestId, rejected: true });
    waiter.reject(new QuestionRejectedError());
    return true;
  }

  rejectAll(sessionId: string): void {
    for (const pending of this.pending(sessionId)) this.reject(pending.id);
  }

  pending(sessionId?: string): PendingQuestion[] {
    return this.requests.list(sessionId);
  }
}
