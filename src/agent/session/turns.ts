// What the agent keeps per session while the page runs: the turn running (or being set up) with its
// abort controller and subagent runs, the session's status, the files it has read (and their mtimes,
// for the read-before-write check) and the instruction files already given to the model.
import type { FileTimes } from "../tools/tool";
import type { SessionStatus } from "./events";
import type { LoopResult } from "./loop";

/** A running turn: stopped through its controller, done only when its subagents are. */
export class Turn {
  readonly controller = new AbortController();
  private readonly children = new Set<Promise<void>>();
  private readonly unlink: () => void;
  /** Set by the agent once the loop runs. */
  done: Promise<LoopResult> = Promise.resolve({ background: [] });

  /** @param parent the caller's signal for a subagent's turn: stopping the caller stops it. */
  constructor(parent?: AbortSignal) {
    const onParentAbort = () => this.controller.abort(parent?.reason);
    if (parent?.aborted) this.controller.abort(parent.reason);
    else parent?.addEventListener("abort", onParentAbort, { once: true });
    this.unlink = () => parent?.removeEventListener("abort", onParentAbort);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** A subagent run this turn started: the turn ends only after it has. */
  addChild(child: Promise<unknown>): void {
    const settled = child.then(
      () => undefined,
      () => undefined,
    );
    this.children.add(settled);
    void settled.then(() => this.children.delete(settled));
  }

  /** Waits for every subagent run, including ones started while waiting; then lets go of the caller. */
  async finish(): Promise<void> {
    while (this.children.size > 0) await Promise.all([...this.children]);
    this.unlink();
  }
}

/** One session's state in this page. */
export class SessionState {
  turn: Turn | undefined;
  /** A turn is being set up (the user's message being written, the loop not started yet). */
  starting = false;
  /** Stop was pressed while the turn was being set up: it stops as soon as it starts. */
  abortRequested = false;
  /** A change being applied that Stop cannot stop ("a revert", "a fork"), named in refusals meanwhile. */
  applying: string | undefined;
  status: SessionStatus = { type: "idle" };
  /** Instruction files already given to the model in this session. */
  readonly instructions = new Set<string>();
  private readonly readTimes = new Map<string, number>();
  readonly fileTimes: FileTimes = {
    markRead: (path, mtime) => void this.readTimes.set(path, mtime),
    lastRead: (path) => this.readTimes.get(path),
  };

  /** A turn is running or being set up: the session cannot be changed from outside the turn. */
  get busy(): boolean {
    return this.turn !== undefined || this.starting;
  }
}

export class SessionStates {
  private readonly states = new Map<string, SessionState>();

  get(sessionId: string): SessionState {
    let state = this.states.get(sessionId);
    if (!state) this.states.set(sessionId, (state = new SessionState()));
    return state;
  }

  busy(sessionId: string): boolean {
    return this.states.get(sessionId)?.busy ?? false;
  }

  delete(sessionId: string): void {
    this.states.delete(sessionId);
  }

  /** Every running turn. */
  turns(): Turn[] {
    return [...this.states.values()].flatMap((state) => (state.turn ? [state.turn] : []));
  }
}
