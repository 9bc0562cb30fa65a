// The chat panel: header (session, agent picker, sessions, changes, usage), the transcript with
// permission and question cards, the retry countdown, and the prompt box. First run without a
// provider shows the guide instead.
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { useStore } from "zustand";
import { errorMessage, revealInvisibleChars, toBase64, tryDecodeText } from "../../base";
import type { WorkspaceFs } from "../../runtime";
import type { FileAttachment, ModelRef } from "../../storage";
import { FirstRunGuide } from "../settings";
import { SessionTextSearch, SessionsSidebar } from "../sessions";
import type { PromptInput } from "./agent-port";
import { useAnnounceFinishedAnswers } from "./answer-announcer";
import type { ChatController } from "./chat-controller";
import type { MessageEntry } from "./chat-store";
import { ChangesView, type DiffRenderer } from "./changes-view";
import { agentLabel, agentTitle, describeContext, describeUsage, formatCost, lastRequestContext, totalTokens } from "./format";
import { MessageList } from "./message-list";
import { PermissionCard } from "./permission-card";
import { PromptBox } from "./prompt-box";
import { QuestionCard } from "./question-card";
import type { ChangesSource } from "./session-changes";
import { BUILTIN_COMMANDS, affectsCommands, loadCustomCommands, type SlashCommand } from "./slash-commands";
import { StatusLine } from "./status-line";
import type { RemoteTurns } from "../sync/sync-controller";
import "./chat.css";

/** Largest text file a mention attaches. */
export const MAX_MENTION_BYTES = 256 * 1024;

const IMAGE_TYPES: Record<string, string> = { png: "image/png", jpg: "image/jpeg", jpeg: "image/jpeg", gif: "image/gif", webp: "image/webp" };

export interface ChatPanelProps {
  controller: ChatController;
  /** The workspace files (mentions, custom commands). */
  files: Pick<WorkspaceFs, "listAll" | "list" | "readFile" | "readText" | "onDidChange">;
  /** False until a provider is configured: the first-run guide shows instead of the chat. */
  hasProvider: boolean;
  onOpenSettings(): void;
  onOpenFile?(path: string): void;
  /** Where the Changes view reads before/after contents (SnapshotChangesSource). */
  changes?: ChangesSource;
  /** The shell's Monaco diff editor; a plain diff is shown without it. */
  renderDiff?: DiffRenderer;
  /** Whether the selected model accepts images (pasted images are refused otherwise). */
  supportsImages?: boolean;
  /** A model's context window in tokens, for the context meter (no meter when unknown). */
  contextWindow?(model: ModelRef): number | undefined;
  onProblem?(message: string): void;
  confirm?(message: string): Promise<boolean>;
  /** The reasoning control for the selected model (not shown when it has no levels). */
  reasoning?: ReasoningControl;
  /** Stores a site commands may always reach (the network card's "Always allow ORIGIN"). */
  onTrustOrigin?(origin: string): Promise<void>;
  /** Turns running on other devices of a synced workspace (none without sync). */
  remoteTurns?: RemoteTurns;
}

const noSubscription = () => () => undefined;

type ReasoningLevel = NonNullable<PromptInput["reasoning"]>;

export interface ReasoningControl {
  /** The levels the model takes, least first (empty: it does not reason). */
  levels: readonly ReasoningLevel[];
  /** The chosen level; unset: the provider's default. */
  value?: ReasoningLevel;
  onChange(value: ReasoningLevel | undefined): void;
}

const EMPTY: readonly MessageEntry[] = [];

export function ChatPanel(props: ChatPanelProps) {
  const { controller, files, hasProvider, onOpenSettings, onOpenFile, changes, renderDiff, supportsImages, contextWindow, onProblem, confirm, reasoning, onTrustOrigin, remoteTurns } = props;
  const view = useStore(controller.view);
  const textSearch = useMemo(() => new SessionTextSearch(controller.agent), [controller]);
  const sessionId = view.activeSessionId;
  const session = useStore(controller.store, (s) => (sessionId ? s.sessions[sessionId] : undefined));
  const sessions = useStore(controller.store, (s) => s.sessions);
  const statuses = useStore(controller.store, (s) => s.status);
  const entries = useStore(controller.store, (s) => (sessionId ? (s.messages[sessionId] ?? EMPTY) : EMPTY));
  const permissions = useStore(controller.store, (s) => s.permissions);
  const questions = useStore(controller.store, (s) => s.questions);
  const status = sessionId ? statuses[sessionId] : undefined;
  const busy = status !== undefined && status.type !== "idle";
  // Another device runs this session's turn: its reply streams in here; sending waits for it.
  const runningOn = useSyncExternalStore(remoteTurns?.subscribe ?? noSubscription, () => (sessionId && !busy ? remoteTurns?.runningOn(sessionId) : undefined));
  const commands = useCustomCommands(files, onProblem);
  useAnnounceFinishedAnswers(sessionId, busy, entries);
  const changesButton = useRef<HTMLButtonElement>(null);

  const visible = useMemo(() => {
    const revertedAt = session?.revert?.messageId;
    return revertedAt ? entries.filter((e) => e.info.id < revertedAt) : entries;
  }, [entries, session?.revert?.messageId]);
  const hiddenCount = entries.length - visible.length;
  const busySessions = useMemo(() => new Set(Object.entries(statuses).filter(([, s]) => s.type !== "idle").map(([id]) => id)), [statuses]);
  const sessionList = useMemo(() => Object.values(sessions), [sessions]);
  const pendingPermissions = Object.values(permissions).filter((p) => p.sessionId === sessionId);
  const pendingQuestions = Object.values(questions).filter((q) => q.sessionId === sessionId);

  const readAttachment = useCallback(async (path: string): Promise<FileAttachment> => {
    const bytes = await files.readFile(path);
    const extension = path.slice(path.lastIndexOf(".") + 1).toLowerCase();
    const imageType = IMAGE_TYPES[extension];
    if (imageType) return { mime: imageType, filename: path, url: `data:${imageType};base64,${toBase64(bytes)}` };
    if (bytes.length > MAX_MENTION_BYTES) throw new Error(`it is ${Math.round(bytes.length / 1024)} KB; mention files up to ${MAX_MENTION_BYTES / 1024} KB, or ask the agent to read it`);
    const text = tryDecodeText(bytes);
    if (text === undefined) throw new Error("it is a binary file");
    return { mime: "text/plain", filename: path, url: text };
  }, [files]);

  const listFiles = useCallback(async () => (await files.listAll()).filter((f) => f.kind === "file").map((f) => f.path), [files]);

  // Stable handlers: the messages are memoised, and new functions on every streamed frame would
  // re-render (and re-highlight) the whole transcript each time.
  const onFork = useCallback((id: string) => void controller.fork(id), [controller]);
  const onRevert = useCallback((id: string) => void controller.revert(id), [controller]);
  const onOpenSession = useCallback((id: string) => void controller.openSession(id), [controller]);
  const latest = useRef({ onOpenFile, onOpenSettings });
  latest.current = { onOpenFile, onOpenSettings };
  const canOpenFile = onOpenFile !== undefined;
  const openFile = useMemo(() => (canOpenFile ? (path: string) => latest.current.onOpenFile?.(path) : undefined), [canOpenFile]);
  const openSettings = useCallback(() => latest.current.onOpenSettings(), []);

  return (
    <div
      className="chat-panel"
      onKeyDown={(event) => {
        // Escape leaves the Changes view for the chat, focus back on the button that opened it
        // (unless something inside, e.g. the prompt's popup, already used the Escape).
        if (event.key !== "Escape" || event.defaultPrevented || view.view !== "changes") return;
        event.stopPropagation();
        controller.setView("chat");
        changesButton.current?.focus();
      }}
    >
      <header className="chat-header">
        <button type="button" className="button" aria-expanded={view.showSessions} aria-controls={view.showSessions ? "chat-sessions" : undefined} onClick={() => controller.toggleSessions()}>
          Sessions
        </button>
        {session?.parentId && (
          <button type="button" className="link-button" onClick={() => void controller.openSession(session.parentId!)}>
            Back to parent session
          </button>
        )}
        <h2 className="chat-title" title={session ? revealInvisibleChars(session.title) : undefined}>
          {session ? revealInvisibleChars(session.title) : "New session"}
        </h2>
        <AgentPicker controller={controller} />
        {reasoning && reasoning.levels.length > 0 && <ReasoningPicker control={reasoning} />}
        <button ref={changesButton} type="button" className="button" aria-pressed={view.view === "changes"} disabled={!session} onClick={() => controller.setView(view.view === "changes" ? "chat" : "changes")}>
          Changes
        </button>
        <button type="button" className="button" onClick={() => void controller.newSession()}>
          New
        </button>
      </header>
      {session && totalTokens(session.tokens) > 0 && (
        <p className="chat-usage" aria-label="Session usage">
          Session: {describeUsage(session.tokens)} · {formatCost(session.cost)}
        </p>
      )}
      <ContextMeter messages={visible} contextWindow={contextWindow} />
      <div className="chat-body">
        {view.showSessions && (
          <SessionsSidebar
            sessions={sessionList}
            activeSessionId={sessionId}
            busy={busySessions}
            onOpen={(id) => void controller.openSession(id)}
            onNew={() => void controller.newSession()}
            onRename={controller.agent.renameSession ? (id) => void controller.rename(id) : undefined}
            onDelete={controller.agent.deleteSession ? (id) => void controller.remove(id) : undefined}
            onDismiss={() => controller.toggleSessions(false)}
            textSearch={textSearch}
          />
        )}
        <div className="chat-main">
          {!hasProvider && visible.length === 0 ? (
            <FirstRunGuide onOpenSettings={onOpenSettings} />
          ) : view.view === "changes" && changes ? (
            <ChangesView entries={entries} source={changes} renderDiff={renderDiff} onOpenFile={onOpenFile} confirm={confirm} onProblem={onProblem} />
          ) : (
            <>
              {!hasProvider && (
                // A transcript (a shared session being continued, older sessions) stays readable; the
                // way to continue it is shown beside it, not instead of it.
                <div className="connect-model-banner" role="region" aria-label="Connect a model">
                  <span>Connect a model to continue this session: add a provider in Settings.</span>
                  <button type="button" className="button button-primary" onClick={onOpenSettings}>
                    Open Settings
                  </button>
                </div>
              )}
              <MessageList entries={visible} busy={busy} onFork={onFork} onRevert={onRevert} onOpenSession={onOpenSession} onOpenFile={openFile} onOpenSettings={openSettings} />
              {session?.revert && (
                <div className="revert-banner" role="status">
                  <span>
                    Reverted: {hiddenCount > 0 ? `${hiddenCount} later message${hiddenCount === 1 ? " is" : "s are"} hidden and ` : ""}the files are back as they were. Sending a new message makes
                    this permanent.
                  </span>
                  <button type="button" className="button" onClick={() => void controller.unrevert()}>
                    Unrevert
                  </button>
                </div>
              )}
              {pendingPermissions.map((request) => (
                <PermissionCard
                  key={request.id}
                  request={request}
                  onReply={(id, reply, message) => controller.answerPermission(id, reply, message)}
                  {...(onTrustOrigin && { onTrustOrigin })}
                />
              ))}
              {pendingQuestions.map((request) => (
                <QuestionCard
                  key={request.id}
                  request={request}
                  onAnswer={(id, answers) => controller.answerQuestion(id, answers)}
                  onDismiss={controller.agent.rejectQuestion ? (id) => controller.dismissQuestion(id) : undefined}
                />
              ))}
              <StatusLine status={status} />
              {runningOn && (
                <p className="status-line" role="status">
                  <span className="status-spinner" aria-hidden="true" /> Running on {runningOn}…
                </p>
              )}
            </>
          )}
        </div>
      </div>
      <PromptBox
        busy={busy || runningOn !== undefined}
        disabledReason={
          !hasProvider
            ? "Add a model provider in Settings to start."
            : session?.share?.readOnly
              ? "This shared session is read-only."
              : runningOn
                ? `A turn of this session is running on ${runningOn}; send when it ends. Stop asks that device to stop.`
                : undefined
        }
        commands={commands}
        onSend={(input) => void controller.send({ ...input, ...(reasoning?.value && reasoning.levels.includes(reasoning.value) && { reasoning: reasoning.value }) })}
        onStop={() => (runningOn && sessionId ? remoteTurns?.requestStop(sessionId) : controller.stop())}
        onCommand={(command, args) => void controller.runCommand(command, args)}
        listFiles={listFiles}
        readAttachment={readAttachment}
        supportsImages={supportsImages}
        onProblem={onProblem}
      />
    </div>
  );
}

/** How full the model's context window is: the last request and its reply against the window. */
function ContextMeter({ messages, contextWindow }: { messages: readonly MessageEntry[]; contextWindow?: ChatPanelProps["contextWindow"] }) {
  const last = lastRequestContext(messages);
  const window = last ? contextWindow?.(last.model) : undefined;
  if (!last || !window || window <= 0) return null;
  const share = last.tokens / window;
  const level = share >= 0.9 ? "high" : share >= 0.7 ? "medium" : "low";
  return (
    <p
      className={`chat-context chat-context-${level}`}
      title="Tokens of the last model call (system prompt, tool schemas and messages, as the provider counted them, plus the reply) against the model's context window. Near the limit, the conversation is compacted."
    >
      <label>
        Context <meter min={0} max={window} low={window * 0.7} high={window * 0.9} optimum={0} value={Math.min(last.tokens, window)} aria-label="Context used" />{" "}
        {describeContext(last.tokens, window)}
      </label>
    </p>
  );
}

function AgentPicker({ controller }: { controller: ChatController }) {
  const agents = useStore(controller.view, (s) => s.agents);
  const agentName = useStore(controller.view, (s) => s.agentName);
  const options = agents.some((a) => a.name === agentName) ? agents : [...agents, { name: agentName, description: "", mode: "primary" as const, builtIn: true }];
  return (
    <label className="agent-picker">
      <span className="visually-hidden">Agent</span>
      <select className="select" aria-label="Agent" value={agentName} onChange={(event) => controller.setAgent(event.target.value)}>
        {options.map((agent) => (
          <option key={agent.name} value={agent.name} title={agentTitle(agent)}>
            {agentLabel(agent)}
          </option>
        ))}
      </select>
    </label>
  );
}

const REASONING_LABELS: Record<ReasoningLevel, string> = { off: "Reasoning: off", low: "Reasoning: low", medium: "Reasoning: medium", high: "Reasoning: high" };

/** How much the selected model reasons: its own levels, or the provider's default. */
function ReasoningPicker({ control }: { control: ReasoningControl }) {
  const value = control.value && control.levels.includes(control.value) ? control.value : "";
  return (
    <label className="agent-picker">
      <span className="visually-hidden">Reasoning</span>
      <select
        className="select"
        aria-label="Reasoning"
        title="How much the model thinks before answering (sent as the provider expects: effort, thinking budget or thinking level)"
        value={value}
        onChange={(event) => control.onChange(event.target.value === "" ? undefined : (event.target.value as ReasoningLevel))}
      >
        <option value="">Reasoning: default</option>
        {control.levels.map((level) => (
          <option key={level} value={level}>
            {REASONING_LABELS[level]}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Built-ins plus the workspace's .webcode/command/*.md, reloaded when those files change. */
function useCustomCommands(files: ChatPanelProps["files"], onProblem?: (message: string) => void): SlashCommand[] {
  const [custom, setCustom] = useState<SlashCommand[]>([]);
  useEffect(() => {
    let live = true;
    // Files can change again while a list loads: only the newest load may set the list.
    let loads = 0;
    const load = () => {
      const mine = ++loads;
      return loadCustomCommands(files).then(
        (commands) => live && mine === loads && setCustom(commands),
        (error: unknown) => live && mine === loads && onProblem?.(`Could not load custom commands: ${errorMessage(error)}.`),
      );
    };
    void load();
    const watcher = files.onDidChange((changes) => {
      if (changes.some((c) => affectsCommands(c.path))) void load();
    });
    return () => {
      live = false;
      watcher.dispose();
    };
  }, [files, onProblem]);
  return useMemo(() => [...BUILTIN_COMMANDS, ...custom.filter((c) => !BUILTIN_COMMANDS.some((b) => b.name === c.name))], [custom]);
}

