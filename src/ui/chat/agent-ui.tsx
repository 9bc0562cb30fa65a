// Plugs the agent UI into the shell's extension points: a "Chat" panel in the right-hand tab host
// and a "Settings" button in the top bar, sharing one open state so "Open Settings" in the chat
// (first-run guide, key errors) opens the same dialog.
import { errorMessage, toDisposable, type Disposable } from "../../base";
import { reasoningLevels } from "../../providers";
import { useEffect, useMemo } from "react";
import { useStore } from "zustand";
import { createStore, type StoreApi } from "zustand/vanilla";
import type { PanelContribution, TopBarContribution, WorkbenchServices } from "../app";
import { downloadBytes } from "../transfer";
import { findModel, SettingsButton, type BackupActions, type McpActions, type BudgetSettings, type PermissionSettings, type ProviderSettings, type RuntimeSettingsStore, type TestConnection } from "../settings";
import type { ChatAgent } from "./agent-port";
import type { NetworkLog } from "../../runtime";
import { ChatController } from "./chat-controller";
import { ChatPanel } from "./chat-panel";
import type { DiffRenderer } from "./changes-view";
import { SnapshotChangesSource } from "./session-changes";
import { StorageSection } from "../storage";
import { SyncController } from "../sync/sync-controller";
import { askHeldChange, SyncIndicator, SyncSection } from "../sync/sync-section";
import { joinInvite } from "../sync/join-invite";

export interface AgentUiDeps {
  /** Provider configs and the default model, loaded (`await settings.load()`) before mounting. */
  settings: ProviderSettings;
  /** Usually `(config) => testConnection(config, { origin: location.origin })` from src/providers. */
  testConnection: TestConnection;
  /** The agent of the open workspace; undefined while its runtime is still starting. */
  agentFor(services: WorkbenchServices): ChatAgent | undefined;
  /** The shell's Monaco diff editor for the Changes view (optional; a plain diff otherwise). */
  renderDiff?: DiffRenderer;
  /** The user's permission choices, edited in Settings (optional; the section is hidden without it). */
  permissions?: PermissionSettings;
  /** The page's record of requests, listed in Settings → Permissions (optional). */
  networkLog?: NetworkLog;
  /** Settings → Runtime (optional; the section is hidden without it). */
  runtime?: RuntimeSettingsStore;
  /** The spending limit per session, edited in Settings (optional; the section is hidden without it). */
  budget?: BudgetSettings;
  /** MCP servers and user skills in Settings (optional; the sections are hidden without it). */
  mcp?: McpActions;
  /** Settings → Sync, shared with the agents' turn coordination (default: one of its own when `runtime` is given). */
  sync?: SyncController;
}

export const CHAT_PANEL_ID = "chat";

export interface AgentUi {
  panels: PanelContribution[];
  topBar: TopBarContribution[];
  /** Opens or closes the Settings dialog from anywhere. */
  settingsOpen: StoreApi<{ open: boolean }>;
  /** The session open in the chat of this workspace (for Share), if any. */
  activeSessionId(services: WorkbenchServices): string | undefined;
}

export function createAgentUi(deps: AgentUiDeps): AgentUi {
  const settingsOpen = createStore<{ open: boolean }>(() => ({ open: false }));
  // Keyed by the open workspace's file service (one per open workspace).
  const controllers = new Map<object, ChatController>();
  // Settings → Sync; the sync code itself loads only when a workspace syncs.
  const sync = deps.sync ?? (deps.runtime ? new SyncController(deps.runtime.store) : undefined);
  return {
    settingsOpen,
    activeSessionId: (services) => controllers.get(services.files)?.view.getState().activeSessionId,
    panels: [
      {
        id: CHAT_PANEL_ID,
        title: "Chat",
        order: -10,
        render: (services) => <ChatPanelHost services={services} deps={deps} settingsOpen={settingsOpen} controllers={controllers} sync={sync} />,
      },
    ],
    topBar: [
      {
        id: "settings",
        order: 100,
        render: (services) => <SettingsTopBarItem deps={deps} settingsOpen={settingsOpen} services={services} sync={sync} />,
      },
      ...(sync && deps.runtime
        ? [{ id: "sync", order: 90, render: (services: WorkbenchServices) => <SyncTopBarItem sync={sync} runtime={deps.runtime!} services={services} /> }]
        : []),
    ],
  };
}

/** Keeps the open workspace synced while Settings → Sync asks for it, and shows the state. */
function SyncTopBarItem({ sync, runtime, services }: { sync: SyncController; runtime: RuntimeSettingsStore; services: WorkbenchServices }) {
  const { files, notifications, documents, dialogs, workspaces, storage } = services;
  // An invite link (`#sync=…`) opened this page: ask, then join (once per page load).
  useEffect(() => {
    if (!location.hash.startsWith("#sync=") || !sync.claimInvite()) return;
    void joinInvite({
      hash: location.hash,
      clearHash: () => history.replaceState(history.state, "", location.pathname + location.search),
      dialogs,
      runtime,
      workspaces,
      error: (error, context) => notifications.error(error, context),
    }).catch((error: unknown) => notifications.error(error, "Could not join the shared workspace"));
  }, [sync, runtime, dialogs, workspaces, notifications]);
  useEffect(() => {
    const binding = sync.bind({
      files,
      storage,
      documents,
      info: (message) => notifications.info(message),
      warn: (message) => notifications.notify("warning", message),
      error: (error, context) => notifications.error(error, context),
      ask: askHeldChange(dialogs),
    });
    return () => binding.dispose();
  }, [sync, files, storage, documents, notifications, dialogs]);
  return <SyncIndicator controller={sync} />;
}

function SettingsTopBarItem({
  deps,
  settingsOpen,
  services,
  sync,
}: {
  deps: AgentUiDeps;
  settingsOpen: StoreApi<{ open: boolean }>;
  services: WorkbenchServices;
  sync: SyncController | undefined;
}) {
  const open = useStore(settingsOpen, (s) => s.open);
  const backup: BackupActions = {
    storage: services.storage,
    flush: () => services.files.flush(),
    save: (bytes, name) => downloadBytes(bytes, name, "application/zip"),
    onRestored: () => services.workspaces.refresh(),
  };
  return (
    <SettingsButton
      settings={deps.settings}
      testConnection={deps.testConnection}
      {...(deps.permissions && { permissions: deps.permissions })}
      {...(deps.networkLog && { networkLog: deps.networkLog })}
      {...(deps.runtime && { runtime: deps.runtime })}
      {...(deps.budget && { budget: deps.budget })}
      {...(deps.mcp && { mcp: deps.mcp })}
      extraSections={
        <>
          {deps.runtime && sync && (
            <SyncSection
              runtime={deps.runtime}
              controller={sync}
              workspaceId={services.workspace.id}
              onProblem={(action) => void action().catch((error: unknown) => services.notifications.error(error, "Settings → Sync"))}
            />
          )}
          <StorageSection services={services} />
        </>
      }
      backup={backup}
      open={open}
      onOpenChange={(value) => settingsOpen.setState({ open: value })}
    />
  );
}

function ChatPanelHost({
  services,
  deps,
  settingsOpen,
  controllers,
  sync,
}: {
  services: WorkbenchServices;
  deps: AgentUiDeps;
  settingsOpen: StoreApi<{ open: boolean }>;
  controllers: Map<object, ChatController>;
  sync: SyncController | undefined;
}) {
  const agent = deps.agentFor(services);
  const settings = useStore(deps.settings.store);
  // Keys locked by a passphrase are asked for here, the first time a request or a save needs them.
  useEffect(() => {
    deps.settings.setPassphraseAsker((problem) =>
      services.dialogs.prompt("Unlock provider keys", problem ? `${problem} Passphrase` : "Passphrase for your provider keys and MCP server credentials", { secret: true, confirmLabel: "Unlock" }),
    );
  }, [deps.settings, services.dialogs]);
  const controller = useMemo(
    () =>
      agent &&
      new ChatController(agent, {
        onProblem: (message) => services.notifications.notify("error", message),
        confirm: (title, message, label) => services.dialogs.confirm(title, message, label, { danger: true }),
        promptTitle: (current) => services.dialogs.prompt("Rename session", "Title", { initialValue: current, confirmLabel: "Rename" }),
      }),
    [agent, services.notifications, services.dialogs],
  );
  useEffect(() => {
    if (!controller) return;
    const key = services.files;
    controllers.set(key, controller);
    void controller.start();
    const edits = services.files.onDidChange((changes) => controller.noteFileChanges(changes));
    const otherTabs = followSessionsOfOtherTabs(services, controller);
    return () => {
      edits.dispose();
      otherTabs.dispose();
      if (controllers.get(key) === controller) controllers.delete(key);
      controller.dispose();
    };
  }, [controller, services.files, controllers]);
  const changes = useMemo(() => new SnapshotChangesSource(services.storage, services.files), [services.storage, services.files]);
  const remoteTurns = useMemo(() => sync?.remoteTurns(services.files.workspaceId), [sync, services.files.workspaceId]);
  if (!controller) {
    return <p className="changes-note">{idleMessage(services)}</p>;
  }
  const model = deps.settings.defaultModel;
  const info = model ? findModel(settings.configs, model) : undefined;
  const config = model ? settings.configs.find((c) => c.id === model.providerId) : undefined;
  const levels = config ? reasoningLevels(config, info) : [];
  const chosen = model ? settings.reasoning[`${model.providerId}/${model.modelId}`] : undefined;
  return (
    <ChatPanel
      controller={controller}
      files={services.files}
      hasProvider={settings.configs.length > 0}
      onOpenSettings={() => settingsOpen.setState({ open: true })}
      onOpenFile={(path) => void services.documents.open(path)}
      changes={changes}
      renderDiff={deps.renderDiff}
      {...(remoteTurns && { remoteTurns })}
      supportsImages={info?.capabilities.images ?? true}
      contextWindow={(ref) => findModel(settings.configs, ref)?.context}
      onProblem={(message) => services.notifications.notify("error", message)}
      confirm={(message) => services.dialogs.confirm("Revert file?", message, "Revert")}
      reasoning={
        model && levels.length > 0
          ? {
              levels,
              ...(chosen && { value: chosen }),
              onChange: (value) =>
                void deps.settings.setReasoning(model, value).catch((error: unknown) => services.notifications.notify("error", `The reasoning level could not be saved: ${errorMessage(error)}.`)),
            }
          : undefined
      }
      {...(deps.permissions && {
        onTrustOrigin: (origin: string) =>
          deps.permissions!.trustOrigin(origin).catch((error: unknown) => {
            services.notifications.notify("error", errorMessage(error));
          }),
      })}
    />
  );
}

/** How often at most the chat reloads what another tab wrote (a turn there writes up to 10 times a second). */
const OTHER_TAB_RELOAD_MS = 250;

/** Sessions changed by other tabs reach the chat, gathered into one reload per OTHER_TAB_RELOAD_MS. */
function followSessionsOfOtherTabs(services: WorkbenchServices, controller: ChatController): Disposable {
  let ids: Set<string> | "all" | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const subscription = services.storage.changes?.onDidChange((change) => {
    if (change.kind !== "sessions") return;
    // Deletions are followed at once: a turn running here in a deleted session must stop writing.
    if (change.deleted) void controller.sessionsDeleted(change.deleted);
    if (!change.sessionIds) ids = "all";
    else if (ids !== "all") {
      const set: Set<string> = ids ?? new Set();
      for (const id of change.sessionIds) set.add(id);
      ids = set;
    }
    timer ??= setTimeout(() => {
      timer = undefined;
      const batch = ids;
      ids = undefined;
      void controller.followOtherTab(batch === "all" ? undefined : [...(batch ?? [])]);
    }, OTHER_TAB_RELOAD_MS);
  });
  return toDisposable(() => {
    subscription?.dispose();
    if (timer !== undefined) clearTimeout(timer);
  });
}

/** What the chat says while it has no agent: a read-only share is a state, not a failure. */
function idleMessage(services: WorkbenchServices): string {
  if (services.files.readOnly) {
    return "This shared session is read-only: its transcript is in the Shared tab. Press Continue in the top bar to make an editable copy and chat with the agent.";
  }
  if (services.runtime.status === "failed") return `The workspace runtime failed: ${services.runtime.message}`;
  return "Starting the workspace…";
}
