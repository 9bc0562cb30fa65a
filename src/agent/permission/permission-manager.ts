// Pending permission asks and the user's replies (docs/agent.md, "Permissions"): once, always (session grants that also
// approve other pending asks they now cover) and reject (which rejects the session's other asks, with
// the user's message when there is one).
import { newId } from "../../base";
import { PermissionDeniedError, PermissionRejectedError, type PermissionRequest } from "../tools/tool";
import { PendingRequests } from "../pending-requests";
import { decide, evaluate, type PermissionAction, type Rule } from "./rules";

export type PermissionReply = "once" | "always" | "reject";

/** An ask waiting for the user; what the permission card shows. */
export interface PendingPermission extends PermissionRequest {
  id: string;
  sessionId: string;
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

export interface PermissionManagerOptions {
  onAsked?(request: PendingPermission): void;
  onReplied?(event: PermissionReplied): void;
  now?(): number;
}

export interface AskInput {
  sessionId: string;
  request: PermissionRequest;
  /** Defaults, user config and agent config, merged in that order (last match wins). */
  rules: Rule[];
  /** Rules from workspace files: they may make a decision stricter, never looser (see decide()). */
  limits?: Rule[];
  callId?: string;
  messageId?: string;
  /** Aborting withdraws the ask (reported to onReplied as a reject) and rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** What an ask keeps to decide later whether an "always" grant covers it. */
interface AskRules {
  rules: Rule[];
  limits: Rule[];
}

/** Whether an "always" grant of the session covers `pattern`. */
function granted(permission: string, pattern: string, grants: readonly Rule[]): boolean {
  return evaluate(permission, pattern, grants).action === "allow";
}

export class PermissionManager {
  private readonly requests = new PendingRequests<PendingPermission, void, AskRules>();
  private readonly grants = new Map<string, Rule[]>();

  constructor(private readonly options: PermissionManagerOptions = {}) {}

  /** Resolves when allowed (by rule or reply); throws PermissionDeniedError / PermissionRejectedError. */
  ask(input: AskInput): Promise<void> {
    const { request, sessionId } = input;
    const patterns = request.patterns.length > 0 ? request.patterns : ["*"];
    let needsAsk = false;
    for (const pattern of patterns) {
      const action = this.check(sessionId, request.permission, pattern, input.rules, input.limits);
      if (action === "deny") return Promise.reject(new PermissionDeniedError(request.permission, pattern));
      if (action === "ask") needsAsk = true;
    }
    if (!needsAsk) return Promise.resolve();

    const pending: PendingPermission = {
      ...request,
      id: newId("per"),
      sessionId,
      createdAt: this.options.now?.() ?? Date.now(),
      ...(input.callId !== undefined && { callId: input.callId }),
      ...(input.messageId !== undefined && { messageId: input.messageId }),
    };
    const answer = this.requests.open(pending, { rules: input.rules, limits: input.limits ?? [] }, input.signal, () =>
      // Tell listeners the ask is gone so its card disappears.
      this.options.onReplied?.({ sessionId, requestId: pending.id, reply: "reject" }),
    );
    if (!input.signal?.aborted) this.options.onAsked?.(pending);
    return answer;
  }

  /**
   * What ask() would do for one pattern, without asking: the configured decision (rules, tightened by
   * limits), with an ask answered by the session's "always" grants. A configured deny stands whatever
   * the user granted: grants only answer asks in advance.
   */
  check(sessionId: string, permission: string, pattern: string, rules: readonly Rule[], limits?: readonly Rule[]): PermissionAction {
    const action = decide(permission, pattern, rules, limits);
    return action === "ask" && granted(permission, pattern, this.sessionRules(sessionId)) ? "allow" : action;
  }

  /** Answers a pending ask. Returns false when there is no such ask (already answered or withdrawn). */
  reply(requestId: string, reply: PermissionReply, message?: string): boolean {
    const waiter = this.requests.take(requestId);
    if (!waiter) return false;
    const { pending } = waiter;
    this.options.onReplied?.({ sessionId: pending.sessionId, requestId, reply, ...(message !== undefined && { message }) });

    if (reply === "reject") {
      waiter.reject(new PermissionRejectedError(pending.permission, message));
      // Nothing else the session asked for may go ahead: a bare reject stops the turn, and with a
      // message the other asks get the same answer, so the agent acts on it for all of them.
      this.rejectAll(pending.sessionId, message);
      return true;
    }
    waiter.resolve();
    if (reply === "always") {
      const grants = this.grants.get(pending.sessionId) ?? [];
      for (const pattern of pending.always) grants.push({ permission: pending.permission, pattern, action: "allow" });
      this.grants.set(pending.sessionId, grants);
      this.approveCovered(pending.sessionId);
    }
    return true;
  }

  /** Pending asks, oldest first, of one session or all. */
  pending(sessionId?: string): PendingPermission[] {
    return this.requests.list(sessionId);
  }

  /**
   * The allow rules granted by "always" replies in this session. They answer asks in advance and
   * nothing more: a pattern the configured rules (or workspace limits) deny stays denied, whichever
   * agent the session runs next.
   */
  sessionRules(sessionId: string): Rule[] {
    return this.grants.get(sessionId)?.slice() ?? [];
  }

  /** Rejects every pending ask of a session (abort, or a rejection elsewhere in the turn). */
  rejectAll(sessionId: string, message?: string): void {
    for (const pending of this.pending(sessionId)) {
      const waiter = this.requests.take(pending.id);
      if (!waiter) continue;
      this.options.onReplied?.({ sessionId, requestId: pending.id, reply: "reject", ...(message !== undefined && { message }) });
      waiter.reject(new PermissionRejectedError(pending.permission, message));
    }
  }

  /** Forgets a session's grants (session deleted). */
  clearSession(sessionId: string): void {
    this.rejectAll(sessionId);
    this.grants.delete(sessionId);
  }

  private approveCovered(sessionId: string): void {
    const grants = this.sessionRules(sessionId);
    for (const pending of this.pending(sessionId)) {
      const { rules, limits } = this.requests.peek(pending.id)!.extra;
      const patterns = pending.patterns.length > 0 ? pending.patterns : ["*"];
      const covered = patterns.every((p) => {
        const action = decide(pending.permission, p, rules, limits);
        return action === "allow" || (action === "ask" && granted(pending.permission, p, grants));
      });
      if (!covered) continue;
      const waiter = this.requests.take(pending.id)!;
      this.options.onReplied?.({ sessionId, requestId: pending.id, reply: "always" });
      waiter.resolve();
    }
  }
}
