// The chat panel: a store fed by the agent's event bus, the transcript with every part kind,
// permission and question cards, the prompt box, slash commands, and the Changes view.
export { ChatPanel, type ChatPanelProps } from "./chat-panel";
export { ChatController, type ChatControllerOptions, type ChatViewState, type ChatView } from "./chat-controller";
export { ChatSync, animationFrameScheduler, type FrameScheduler } from "./chat-sync";
export { createChatStore, reduceChat, sortedSessions, type ChatState, type ChatStore, type MessageEntry, type ChatAction } from "./chat-store";
export { ChangesView, type ChangesViewProps, type DiffRenderer, type DiffRendererProps } from "./changes-view";
export { SnapshotChangesSource, changedFiles, type ChangesSource, type ChangedFile } from "./session-changes";
export { PermissionCard } from "./permission-card";
export { QuestionCard } from "./question-card";
export { PromptBox } from "./prompt-box";
export { BUILTIN_COMMANDS, INIT_PROMPT, loadCustomCommands, type SlashCommand } from "./slash-commands";
export type { ChatAgent, AgentEvents, PendingPermission, PendingQuestion, SessionStatus, MessageWithParts } from "./agent-port";
export { createAgentUi, CHAT_PANEL_ID, type AgentUi, type AgentUiDeps } from "./agent-ui";
