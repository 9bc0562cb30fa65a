// Requests waiting for the user (permission asks, the model's questions): one registry for both,
// so asking, answering, withdrawing on abort and listing work the same way for each.

/** What every pending request carries. */
export interface PendingRequest {
  id: string;
  sessionId: string;
}

/** A taken request: its record, what its owner kept with it, and how to settle it. */
export interface TakenRequest<P extends PendingRequest, A, X> {
  pending: P;
  extra: X;
  resolve(answer: A): void;
  reject(error: unknown): void;
}

interface Waiter<P extends PendingRequest, A, X> extends TakenRequest<P, A, X> {
  cleanup(): void;
}

export class PendingRequests<P extends PendingRequest, A, X = undefined> {
  private readonly waiters = new Map<string, Waiter<P, A, X>>();

  /**
   * Registers `pending` until it is taken (answered) or `signal` aborts: then it is withdrawn
   * (`onWithdrawn`, so its card disappears) and the promise rejects with the signal's reason.
   */
  open(pending: P, extra: X, signal: AbortSignal | undefined, onWithdrawn: (pending: P) => void): Promise<A> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<A>((resolve, reject) => {
      const onAbort = () => {
        if (!this.waiters.delete(pending.id)) return;
        onWithdrawn(pending);
        reject(signal?.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.waiters.set(pending.id, { pending, extra, resolve, reject, cleanup: () => signal?.removeEventListener("abort", onAbort) });
    });
  }

  /** Removes a request to settle it; undefined when there is none (answered already or withdrawn). */
  take(id: string): TakenRequest<P, A, X> | undefined {
    const waiter = this.waiters.get(id);
    if (!waiter) return undefined;
    this.waiters.delete(id);
    waiter.cleanup();
    return waiter;
  }

  /** A request still waiting, without taking it. */
  peek(id: string): TakenRequest<P, A, X> | undefined {
    return this.waiters.get(id);
  }

  /** Waiting requests, oldest first, of one session or all. */
  list(sessionId?: string): P[] {
    const all = [...this.waiters.values()].map((w) => w.pending);
    return sessionId === undefined ? all : all.filter((p) => p.sessionId === sessionId);
  }
}
