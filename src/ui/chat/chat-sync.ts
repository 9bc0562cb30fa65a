// Feeds the chat store from the agent: subscribes to every bus event and applies them in batches,
// one store update per animation frame, so a fast stream costs one render per frame, not per delta.
import { DisposableStore, errorMessage, type Disposable } from "../../base";
import { AGENT_EVENT_NAMES, type AgentEvent, type ChatAgent } from "./agent-port";
import { actionSessionId, dispatchChat, type ChatAction, type ChatStore } from "./chat-store";

export interface FrameScheduler {
  request(callback: () => void): unknown;
  cancel(handle: unknown): void;
}

/** requestAnimationFrame where there is one (the page), a 16 ms timer elsewhere. */
export const animationFrameScheduler: FrameScheduler = {
  request(callback) {
    if (typeof requestAnimationFrame === "function") return requestAnimationFrame(() => callback());
    return setTimeout(callback, 16);
  },
  cancel(handle) {
    if (typeof cancelAnimationFrame === "function" && typeof handle === "number") cancelAnimationFrame(handle);
    else clearTimeout(handle as ReturnType<typeof setTimeout>);
  },
};

export class ChatSync implements Disposable {
  private readonly disposables = new DisposableStore();
  private queue: ChatAction[] = [];
  /** Queue index of the pending update of each part, so repeated deltas collapse to the newest. */
  private partSlots = new Map<string, number>();
  private frame: unknown;
  private readonly loading = new Map<string, Promise<void>>();
  /** Message events of sessions being loaded, replayed over the snapshot (they are newer). */
  private readonly loadLogs = new Map<string, ChatAction[]>();
  private disposed = false;
  /** Reports load failures (the panel shows them); defaults to the console. */
  onError: (message: string) => void = (message) => console.error(message);

  constructor(
    private readonly agent: ChatAgent,
    readonly store: ChatStore,
    private readonly scheduler: FrameScheduler = animationFrameScheduler,
  ) {
    for (const name of AGENT_EVENT_NAMES) {
      this.disposables.add(agent.bus.on(name, (payload) => this.enqueue({ name, payload } as AgentEvent)));
    }
  }

  private enqueue(action: ChatAction): void {
    if (this.disposed) return;
    const sessionId = actionSessionId(action);
    if (sessionId !== undefined) this.loadLogs.get(sessionId)?.push(action);
    if (action.name === "part-updated") {
      const slot = this.partSlots.get(action.payload.part.id);
      if (slot !== undefined) {
        this.queue[slot] = action;
        return;
      }
      this.partSlots.set(action.payload.part.id, this.queue.length);
    }
    this.queue.push(action);
    if (this.frame === undefined) this.frame = this.scheduler.request(() => this.flush());
  }

  /** Applies everything queued now (also runs on each animation frame). */
  flush(): void {
    if (this.frame !== undefined) {
      this.scheduler.cancel(this.frame);
      this.frame = undefined;
    }
    if (this.queue.length === 0) return;
    const actions = this.queue;
    this.queue = [];
    this.partSlots = new Map();
    dispatchChat(this.store, actions);
  }

  /** Loads the session list once (later changes arrive as events). */
  async loadSessions(): Promise<void> {
    try {
      const sessions = await this.agent.listSessions();
      this.flush();
      dispatchChat(this.store, [{ name: "sessions-loaded", payload: { sessions } }]);
      const permissions = this.agent.pendingPermissions?.() ?? [];
      const questions = this.agent.pendingQuestions?.() ?? [];
      if (permissions.length || questions.length) dispatchChat(this.store, [{ name: "pending-loaded", payload: { permissions, questions } }]);
    } catch (error) {
      this.onError(`Could not load the session list: ${errorMessage(error)}. Reload the page to try again.`);
    }
  }

  /** Sessions deleted elsewhere leave the list (and their messages the view). */
  removeSessions(sessionIds: readonly string[]): void {
    // The agent's own "session-deleted" events for the ones it held are applied first.
    this.flush();
    const shown = this.store.getState().sessions;
    const gone = sessionIds.filter((id) => shown[id]);
    if (gone.length === 0) return;
    dispatchChat(this.store, gone.map((sessionId): ChatAction => ({ name: "session-deleted", payload: { sessionId } })));
  }

  /** Loads a session's messages once; events arriving meanwhile are kept and win over the snapshot. */
  openSession(sessionId: string, options: { reload?: boolean } = {}): Promise<void> {
    if (options.reload && !this.loading.has(sessionId)) {
      this.flush();
      dispatchChat(this.store, [{ name: "messages-unloaded", payload: { sessionId } }]);
    }
    if (this.store.getState().messages[sessionId] && !this.loading.has(sessionId)) return Promise.resolve();
    const existing = this.loading.get(sessionId);
    if (existing) return existing;
    this.flush();
    dispatchChat(this.store, [{ name: "messages-loading", payload: { sessionId } }]);
    const log: ChatAction[] = [];
    this.loadLogs.set(sessionId, log);
    const load = (async () => {
      try {
        const messages = await this.agent.getMessages(sessionId);
        if (this.disposed) return;
        this.flush();
        dispatchChat(this.store, [{ name: "messages-loaded", payload: { sessionId, messages } }, ...log]);
      } catch (error) {
        this.onError(`Could not load this session's messages: ${errorMessage(error)}. Reload the page to try again.`);
      } finally {
        this.loading.delete(sessionId);
        this.loadLogs.delete(sessionId);
      }
    })();
    this.loading.set(sessionId, load);
    return load;
  }

  dispose(): void {
    this.disposed = true;
    if (this.frame !== undefined) this.scheduler.cancel(this.frame);
    this.frame = undefined;
    this.queue = [];
    this.disposables.dispose();
  }
}
