// The chat panel's one way in for user actions: which session is open, which agent is picked, and
// the calls to the agent (send, stop, commands, fork, revert, rename, delete). Owns the store and
// its bus subscription for one open workspace.
import { errorMessage, invisibleCharsProblem, revealInvisibleChars, type Disposable } from "../../base";
import type { ChangeSource, FileChange } from "../../runtime";
import type { FileAttachment, SessionRecord } from "../../storage";
import { createStore, type StoreApi } from "zustand/vanilla";
import type { AgentSummary, ChatAgent, PromptInput } from "./agent-port";
import { createChatStore, sortedSessions, type ChatStore } from "./chat-store";
import { ChatSync, type FrameScheduler } from "./chat-sync";
import { INIT_PROMPT, expandTemplate, type SlashCommand } from "./slash-commands";

export type ChatView = "chat" | "changes";

export interface ChatViewState {
  activeSessionId?: string;
  /** The agent new messages go to ("build" unless the user picks another). */
  agentName: string;
  agents: AgentSummary[];
  showSessions: boolean;
  view: ChatView;
}

export interface ChatControllerOptions {
  scheduler?: FrameScheduler;
  /** Shows a problem to the user (toast). */
  onProblem?(message: string): void;
  /** Asks before deleting (defaults to yes; the panel passes the dialog service). */
  confirm?(title: string, message: string, confirmLabel: string): Promise<boolean>;
  /** Asks for a new title (the panel passes the dialog service). */
  promptTitle?(current: string): Promise<string | undefined>;
}

/** Change sources that are the user's own edits. */
const USER_SOURCES: ReadonlySet<ChangeSource> = new Set<ChangeSource>(["editor", "terminal", "user"]);

export class ChatController implements Disposable {
  readonly store: ChatStore;
  readonly sync: ChatSync;
  readonly view: StoreApi<ChatViewState>;
  private readonly unsubscribe: () => void;
  private readonly agentsWatch: Disposable;
  private agentLoads = 0;
  private disposed = false;
  /** Sessions deleted elsewhere while this page showed them (a send refused for one is not reported). */
  private readonly deletedElsewhere = new Set<string>();

  constructor(
    readonly agent: ChatAgent,
    private readonly options: ChatControllerOptions = {},
  ) {
    this.store = createChatStore();
    this.sync = new ChatSync(agent, this.store, options.scheduler);
    this.sync.onError = (message) => this.problem(message);
    this.view = createStore<ChatViewState>(() => ({ agentName: agent.defaultAgent, agents: [], showSessions: false, view: "chat" }));
    // A deleted open session closes; a session that becomes a fork's target opens via fork().
    this.unsubscribe = this.store.subscribe((state) => {
      const active = this.view.getState().activeSessionId;
      if (active && state.sessionsLoaded && !state.sessions[active]) this.view.setState({ activeSessionId: undefined });
    });
    // Workspace agent files changed (added, edited, removed): the picker follows without a reload.
    this.agentsWatch = agent.bus.on("agents-changed", () => void this.loadAgents());
  }

  private problem(message: string): void {
    if (this.options.onProblem) this.options.onProblem(message);
    else console.error(message);
  }

  /** Loads sessions and agents, and opens the most recent session. */
  async start(): Promise<void> {
    await this.sync.loadSessions();
    void this.loadAgents();
    const latest = sortedSessions(this.store.getState())[0];
    if (latest && !this.view.getState().activeSessionId) await this.openSession(latest.id);
  }

  async loadAgents(): Promise<void> {
    // Agent files can change while a list is loading: only the newest load may set the list.
    const load = ++this.agentLoads;
    try {
      const agents = await this.agent.listAgents();
      if (load !== this.agentLoads || this.disposed) return;
      this.view.setState({ agents: agents.filter((a) => a.mode !== "subagent" && !a.hidden) });
    } catch (error) {
      if (load === this.agentLoads) this.problem(`Could not load the agent list: ${errorMessage(error)}.`);
    }
  }

  get activeSession(): SessionRecord | undefined {
    const id = this.view.getState().activeSessionId;
    return id ? this.store.getState().sessions[id] : undefined;
  }

  isBusy(sessionId: string | undefined): boolean {
    if (!sessionId) return false;
    const status = this.store.getState().status[sessionId];
    return status !== undefined && status.type !== "idle";
  }

  async openSession(sessionId: string): Promise<void> {
    const session = this.store.getState().sessions[sessionId];
    this.view.setState({ activeSessionId: sessionId, view: "chat", ...(session && !session.parentId && { agentName: session.agent }) });
    await this.sync.openSession(sessionId);
  }

  /** Shows the first-run state: no session open until the first message creates one. */
  async newSession(): Promise<SessionRecord | undefined> {
    try {
      const session = await this.agent.createSession({ agent: this.view.getState().agentName });
      this.sync.flush();
      await this.openSession(session.id);
      return session;
    } catch (error) {
      this.problem(`Could not create a session: ${errorMessage(error)}.`);
      return undefined;
    }
  }

  setAgent(name: string): void {
    this.view.setState({ agentName: name });
  }

  toggleSessions(show?: boolean): void {
    this.view.setState((s) => ({ showSessions: show ?? !s.showSessions }));
  }

  setView(view: ChatView): void {
    this.view.setState({ view });
  }

  /** Sends a message to the open session (creating one first when none is open). */
  async send(input: { text: string; files?: FileAttachment[]; agent?: string; reasoning?: PromptInput["reasoning"] }): Promise<void> {
    let sessionId = this.view.getState().activeSessionId;
    if (!sessionId) sessionId = (await this.newSession())?.id;
    if (!sessionId) return;
    try {
      // A turn's error is recorded on its message and shown there; only a refusal to start lands here.
      await this.agent.prompt(sessionId, {
        text: input.text,
        ...(input.files && input.files.length > 0 && { files: input.files }),
        agent: input.agent ?? this.view.getState().agentName,
        ...(input.reasoning && { reasoning: input.reasoning }),
      });
    } catch (error) {
      // Deleted elsewhere while the message was being sent: the session is gone, nothing to report.
      if (this.deletedElsewhere.has(sessionId)) return;
      this.problem(`The message could not be sent: ${errorMessage(error)}.`);
    }
  }

  stop(): void {
    const sessionId = this.view.getState().activeSessionId;
    if (sessionId) this.agent.abort(sessionId);
  }

  async runCommand(command: SlashCommand, args: string): Promise<void> {
    switch (command.name) {
      case "new":
        if (command.kind === "builtin") {
          await this.newSession();
          return;
        }
        break;
      case "compact":
        if (command.kind === "builtin") {
          const sessionId = this.view.getState().activeSessionId;
          if (!sessionId) {
            this.problem("There is nothing to compact yet: open a session with some messages first.");
            return;
          }
          try {
            await this.agent.compact(sessionId);
          } catch (error) {
            this.problem(`Compaction failed: ${errorMessage(error)}.`);
          }
          return;
        }
        break;
      case "init":
        if (command.kind === "builtin") {
          await this.send({ text: args ? `${INIT_PROMPT}\n\n${args}` : INIT_PROMPT });
          return;
        }
        break;
    }
    if (command.template !== undefined) {
      await this.send({ text: expandTemplate(command.template, args), ...(command.agent && { agent: command.agent }) });
    }
  }

  async fork(messageId: string): Promise<void> {
    const sessionId = this.view.getState().activeSessionId;
    if (!sessionId) return;
    try {
      const forked = await this.agent.fork(sessionId, messageId);
      this.sync.flush();
      await this.openSession(forked.id);
    } catch (error) {
      this.problem(`Could not fork the session: ${errorMessage(error)}.`);
    }
  }

  async revert(messageId: string): Promise<void> {
    const sessionId = this.view.getState().activeSessionId;
    if (!sessionId) return;
    if (this.isBusy(sessionId)) {
      this.problem("The agent is still working. Stop it before reverting.");
      return;
    }
    try {
      await this.agent.revert(sessionId, messageId);
    } catch (error) {
      this.problem(`Could not revert: ${errorMessage(error)}.`);
    }
  }

  async unrevert(): Promise<void> {
    const sessionId = this.view.getState().activeSessionId;
    if (!sessionId) return;
    try {
      await this.agent.unrevert(sessionId);
      // The hidden messages come back: read them again.
      await this.sync.openSession(sessionId, { reload: true });
    } catch (error) {
      this.problem(`Could not undo the revert: ${errorMessage(error)}.`);
    }
  }

  async rename(sessionId: string): Promise<void> {
    const session = this.store.getState().sessions[sessionId];
    if (!session || !this.agent.renameSession) return;
    const title = await (this.options.promptTitle?.(revealInvisibleChars(session.title)) ?? Promise.resolve(undefined));
    if (title === undefined || !title.trim() || title.trim() === session.title) return;
    const invisible = invisibleCharsProblem(title.trim());
    if (invisible) {
      this.problem(`Could not rename the session: ${invisible}`);
      return;
    }
    try {
      await this.agent.renameSession(sessionId, title.trim());
    } catch (error) {
      this.problem(`Could not rename the session: ${errorMessage(error)}.`);
    }
  }

  async remove(sessionId: string): Promise<void> {
    const session = this.store.getState().sessions[sessionId];
    if (!session || !this.agent.deleteSession) return;
    const confirmed = await (this.options.confirm?.(
      "Delete session?",
      `"${revealInvisibleChars(session.title)}" and its messages will be deleted. Files in the workspace are not changed.`,
      "Delete",
    ) ?? Promise.resolve(true));
    if (!confirmed) return;
    try {
      if (this.isBusy(sessionId)) this.agent.abort(sessionId);
      await this.agent.deleteSession(sessionId);
    } catch (error) {
      this.problem(`Could not delete the session: ${errorMessage(error)}.`);
    }
  }

  /**
   * Another tab stored changes to sessions (all when `sessionIds` is undefined): the list follows,
   * and the open session shows what the other tab wrote (a turn running there, live) unless this
   * tab is running it.
   */
  async followOtherTab(sessionIds: readonly string[] | undefined): Promise<void> {
    const dropped = this.agent.forgetChangedElsewhere?.(sessionIds) ?? [];
    await this.sync.loadSessions();
    const active = this.view.getState().activeSessionId;
    if (active && dropped.includes(active) && !this.isBusy(active)) await this.sync.openSession(active, { reload: true });
    // Nothing open (no session existed here yet): the one another tab or device just started opens,
    // so its turn is followed live. ("New" opens a session of its own, so no choice is overridden.)
    if (!active) {
      const latest = sortedSessions(this.store.getState())[0];
      if (latest) await this.openSession(latest.id);
    }
  }

  /**
   * Sessions deleted elsewhere (Settings → Storage, another tab): a turn running here in one stops
   * and writes nothing more (it would put back a session that is gone), and the list drops them.
   */
  async sessionsDeleted(sessionIds: readonly string[]): Promise<void> {
    for (const id of sessionIds) this.deletedElsewhere.add(id);
    try {
      await this.agent.dropDeletedSessions?.(sessionIds);
    } catch (error) {
      this.problem(`Could not finish deleting the sessions: ${errorMessage(error)}.`);
    }
    this.sync.removeSessions(sessionIds);
  }

  /**
   * Reports workspace changes the user made (editor, terminal) to the open session, so the agent
   * re-reads those files before touching them. Changes by the agent itself are not reported.
   */
  noteFileChanges(changes: readonly FileChange[]): void {
    const sessionId = this.view.getState().activeSessionId;
    if (!sessionId || !this.agent.noteUserEdits) return;
    const paths = [...new Set(changes.filter((c) => c.kind === "file" && USER_SOURCES.has(c.source)).map((c) => c.path))];
    if (paths.length === 0) return;
    this.agent.noteUserEdits(sessionId, paths).catch((error: unknown) => this.problem(`Could not note your edits for the agent: ${errorMessage(error)}.`));
  }

  answerPermission(requestId: string, reply: "once" | "always" | "reject", message?: string): void {
    this.agent.replyPermission(requestId, reply, message);
  }

  answerQuestion(requestId: string, answers: string[][]): void {
    this.agent.replyQuestion(requestId, answers);
  }

  dismissQuestion(requestId: string): void {
    this.agent.rejectQuestion?.(requestId);
  }

  dispose(): void {
    this.disposed = true;
    this.unsubscribe();
    this.agentsWatch.dispose();
    this.sync.dispose();
  }
}
