// One agent per open workspace runtime: made when the runtime is ready, the same one handed out on
// every render, and disposed when its workspace closes or its runtime goes away.
import type { Disposable } from "../../base";
import type { Runtime } from "../../runtime";
import type { WorkbenchServices, WorkspaceState } from "../app";

interface Entry<A> {
  runtime: Runtime;
  agent: A;
}

/** The part of the workspace controller this needs: its state store. */
export interface WorkspaceStateSource {
  getState(): WorkspaceState;
  subscribe(listener: (state: WorkspaceState) => void): () => void;
}

export class WorkspaceAgents<A extends Disposable> implements Disposable {
  private readonly entries = new Map<string, Entry<A>>();
  private readonly watched = new Map<WorkspaceStateSource, () => void>();
  private disposed = false;

  /** `create` returns undefined when the agent cannot be made yet (its code is still loading). */
  constructor(private readonly create: (runtime: Runtime, services: WorkbenchServices) => A | undefined) {}

  /** The workspace's agent; undefined until its runtime is ready. */
  agentFor(services: WorkbenchServices): A | undefined {
    if (this.disposed || services.runtime.status !== "ready") return undefined;
    const workspaceId = services.workspace.id;
    const runtime = services.runtime.runtime;
    const entry = this.entries.get(workspaceId);
    if (entry?.runtime === runtime) return entry.agent;
    if (entry) this.release(workspaceId);
    const agent = this.create(runtime, services);
    if (!agent) return undefined;
    this.entries.set(workspaceId, { runtime, agent });
    this.watch(services.workspaces.store);
    return agent;
  }

  /** How many agents are alive (for tests and diagnostics). */
  get size(): number {
    return this.entries.size;
  }

  private watch(source: WorkspaceStateSource): void {
    if (this.watched.has(source)) return;
    this.watched.set(
      source,
      source.subscribe((state) => this.prune(state)),
    );
  }

  /** Releases the agents whose workspace is no longer open with the same runtime. */
  private prune(state: WorkspaceState): void {
    for (const [workspaceId, entry] of [...this.entries]) {
      const open = state.current?.workspace.id === workspaceId && state.runtime.status === "ready" && state.runtime.runtime === entry.runtime;
      if (!open) this.release(workspaceId);
    }
  }

  private release(workspaceId: string): void {
    const entry = this.entries.get(workspaceId);
    if (!entry) return;
    this.entries.delete(workspaceId);
    // Aborts a running turn; the agent writes what it has queued as it goes.
    entry.agent.dispose();
  }

  dispose(): void {
    this.disposed = true;
    for (const unsubscribe of this.watched.values()) unsubscribe();
    this.watched.clear();
    for (const workspaceId of [...this.entries.keys()]) this.release(workspaceId);
  }
}
