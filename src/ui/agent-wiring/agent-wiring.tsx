// Wires the agent into the IDE for main.tsx: a Chat panel (the right panel's first tab) and a
// Settings button whose real content arrives with the agent chunk (chat UI, agent core, AI SDK),
// loaded once storage is open so the first paint does not wait for it.
import type { NetworkLog } from "../../runtime";
import { Fragment, type ReactNode } from "react";
import { useStore } from "zustand";
import { createStore } from "zustand/vanilla";
import { errorMessage, type Disposable } from "../../base";
import type { Storage } from "../../storage";
import type { PanelContribution, TopBarContribution, WorkbenchServices } from "../app";
import type { AgentHost, AgentHostOptions } from "./agent-host";
import "./agent-wiring.css";

export const CHAT_PANEL_ID = "chat";
export const SETTINGS_TOP_BAR_ID = "settings";

export interface AgentWiringOptions {
  /** The page's origin, for the connection test's CORS advice. */
  origin: string;
  /** The code service for a workspace's files (diagnostics after edits, the code tool); none when absent. */
  codeIntelligence?: AgentHostOptions["codeIntelligence"];
  /** The page's record of requests made by commands and tools (Settings → Permissions shows it). */
  networkLog?: NetworkLog;
  /** Builds the host (default: the lazy agent chunk); tests inject their own. */
  createHost?: (options: AgentHostOptions) => Promise<AgentHost>;
}

export interface AgentWiring extends Disposable {
  readonly panels: PanelContribution[];
  readonly topBar: TopBarContribution[];
  /** Hands over storage once it is open; loads the agent chunk and the settings. */
  attach(storage: Storage): Promise<AgentHost>;
  /** The host once loaded. */
  readonly host: AgentHost | undefined;
  /** The session open in the workspace's chat (for Share). */
  activeSessionId(services: WorkbenchServices): string | undefined;
}

type HostState = { status: "loading" } | { status: "ready"; host: AgentHost } | { status: "failed"; message: string };

export function createAgentWiring(options: AgentWiringOptions): AgentWiring {
  const state = createStore<HostState>(() => ({ status: "loading" }));
  const createHost = options.createHost ?? (async (hostOptions) => (await import("./agent-host")).createAgentHost(hostOptions));
  let attaching: Promise<AgentHost> | undefined;
  let disposed = false;

  /** Renders `ready` once the host is there; until then the fallback, or what failed. */
  function WhenReady({ ready, fallback }: { ready(host: AgentHost): ReactNode; fallback: ReactNode }) {
    const current = useStore(state);
    if (current.status === "ready") return <>{ready(current.host)}</>;
    if (current.status === "failed") {
      return (
        <p className="agent-load-failed" role="alert">
          {current.message}
        </p>
      );
    }
    return <>{fallback}</>;
  }

  const host = () => {
    const current = state.getState();
    return current.status === "ready" ? current.host : undefined;
  };

  return {
    panels: [
      {
        id: CHAT_PANEL_ID,
        title: "Chat",
        order: -10,
        render: (services) => (
          <WhenReady ready={(h) => h.ui.panels.find((p) => p.id === CHAT_PANEL_ID)?.render(services)} fallback={<p className="agent-loading">Loading the chat…</p>} />
        ),
      },
    ],
    topBar: [
      {
        id: SETTINGS_TOP_BAR_ID,
        order: 100,
        render: (services) => (
          <WhenReady
            ready={(h) => h.ui.topBar.map((item) => <Fragment key={item.id}>{item.render(services)}</Fragment>)}
            fallback={
              <button type="button" className="button top-bar-button" disabled>
                Settings
              </button>
            }
          />
        ),
      },
    ],
    attach(storage) {
      attaching ??= createHost({
        storage,
        origin: options.origin,
        ...(options.codeIntelligence && { codeIntelligence: options.codeIntelligence }),
        ...(options.networkLog && { networkLog: options.networkLog }),
      }).then(
        (created) => {
          if (disposed) created.dispose();
          else state.setState({ status: "ready", host: created });
          return created;
        },
        (error: unknown) => {
          state.setState({ status: "failed", message: `The agent could not load: ${errorMessage(error)}. Reload the page to try again.` });
          throw error;
        },
      );
      return attaching;
    },
    get host() {
      return host();
    },
    activeSessionId: (services) => host()?.ui.activeSessionId(services),
    dispose() {
      disposed = true;
      host()?.dispose();
    },
  };
}
