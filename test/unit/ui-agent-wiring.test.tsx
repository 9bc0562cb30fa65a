// @vitest-environment happy-dom
// The agent wiring of the IDE: one agent per open workspace runtime (same one on every render,
// disposed when the workspace closes or the runtime changes), a provider registry that follows the
// Settings without a reload, and contributions that show the chat once the agent chunk has loaded.
import "../support/happy-dom-node-name";
import { afterEach, describe, expect, it } from "vitest";
import { createStore } from "zustand/vanilla";
import type { Disposable } from "../../src/base";
import { configFromPreset, defaultModelInfo } from "../../src/providers";
import type { Runtime } from "../../src/runtime";
import { openStorage, type Storage } from "../../src/storage";
import type { WorkbenchServices, WorkspaceState } from "../../src/ui/app";
import { createAgentWiring, WorkspaceAgents, type AgentHost } from "../../src/ui/agent-wiring";
import { LiveProviderRegistry } from "../../src/ui/agent-wiring/live-provider-registry";
import { ProviderSettings } from "../../src/ui/settings";
import { render, settle, type Rendered } from "./ui-chat-render";

let views: Rendered[] = [];
let storage: Storage | undefined;
afterEach(async () => {
  for (const view of views) await view.unmount();
  views = [];
  storage?.close();
  storage = undefined;
});

const fakeRuntime = (name: string) => ({ name, dispose() {} }) as unknown as Runtime;

function workbench() {
  const store = createStore<WorkspaceState>(() => ({ workspaces: [], runtime: { status: "starting" }, switching: false }));
  const services = (workspaceId: string, runtime?: Runtime) =>
    ({
      workspace: { id: workspaceId },
      runtime: runtime ? { status: "ready", runtime } : { status: "starting" },
      workspaces: { store },
      notifications: { error() {} },
    }) as unknown as WorkbenchServices;
  const open = (workspaceId: string, runtime?: Runtime) =>
    store.setState({
      current: { workspace: { id: workspaceId }, files: {} } as WorkspaceState["current"],
      runtime: runtime ? ({ status: "ready", runtime } as WorkspaceState["runtime"]) : { status: "starting" },
    });
  return { store, services, open };
}

class CountedAgent implements Disposable {
  disposed = false;
  constructor(readonly runtime: Runtime) {}
  dispose() {
    this.disposed = true;
  }
}

describe("WorkspaceAgents", () => {
  it("has no agent while the runtime starts, then one per runtime, the same on every call", () => {
    const { services, open } = workbench();
    const made: CountedAgent[] = [];
    const agents = new WorkspaceAgents((runtime) => {
      const agent = new CountedAgent(runtime);
      made.push(agent);
      return agent;
    });
    expect(agents.agentFor(services("ws1"))).toBeUndefined();
    const runtime = fakeRuntime("r1");
    open("ws1", runtime);
    const first = agents.agentFor(services("ws1", runtime));
    expect(first?.runtime).toBe(runtime);
    expect(agents.agentFor(services("ws1", runtime))).toBe(first);
    expect(made).toHaveLength(1);
    agents.dispose();
    expect(first?.disposed).toBe(true);
  });

  it("disposes the agent when its workspace closes or its runtime is replaced", () => {
    const { services, open } = workbench();
    const agents = new WorkspaceAgents((runtime) => new CountedAgent(runtime));
    const r1 = fakeRuntime("r1");
    open("ws1", r1);
    const first = agents.agentFor(services("ws1", r1))!;
    // Switching to another workspace closes the first (the shell sets current and a starting runtime).
    open("ws2");
    expect(first.disposed).toBe(true);
    expect(agents.size).toBe(0);
    const r2 = fakeRuntime("r2");
    open("ws2", r2);
    const second = agents.agentFor(services("ws2", r2))!;
    expect(second).not.toBe(first);
    // Back to ws1 with a new runtime: a new agent, the old one stays disposed.
    const r3 = fakeRuntime("r3");
    open("ws1", r3);
    expect(second.disposed).toBe(true);
    const third = agents.agentFor(services("ws1", r3))!;
    expect(third.runtime).toBe(r3);
    expect(third.disposed).toBe(false);
  });

  it("makes nothing when the factory cannot yet, and tries again on the next call", () => {
    const { services, open } = workbench();
    let ready = false;
    const agents = new WorkspaceAgents((runtime) => (ready ? new CountedAgent(runtime) : undefined));
    const runtime = fakeRuntime("r1");
    open("ws1", runtime);
    expect(agents.agentFor(services("ws1", runtime))).toBeUndefined();
    ready = true;
    expect(agents.agentFor(services("ws1", runtime))?.runtime).toBe(runtime);
  });
});

describe("LiveProviderRegistry", () => {
  it("follows provider changes saved in Settings without being rebuilt by its user", async () => {
    storage = await openStorage({ name: `wiring-${Math.random()}` });
    const settings = new ProviderSettings(storage);
    await settings.load();
    const registry = new LiveProviderRegistry(settings.store);
    const ref = { providerId: "custom", modelId: "local-model" };
    expect(registry.modelInfo(ref)).toBeUndefined();
    expect(() => registry.languageModel(ref)).toThrow();

    const config = configFromPreset("custom", { baseUrl: "http://127.0.0.1:9/v1", models: [defaultModelInfo("custom", "local-model")] });
    await settings.saveProvider(config);
    expect(registry.modelInfo(ref)?.id).toBe("local-model");
    expect(registry.providerName("custom")).toBe(config.name);
    const model = registry.languageModel(ref);
    expect(typeof model === "object" && model.modelId).toBe("local-model");

    await settings.saveProvider({ ...config, name: "My local server" });
    expect(registry.providerName("custom")).toBe("My local server");
    registry.dispose();
    await settings.saveProvider({ ...config, name: "After dispose" });
    expect(registry.providerName("custom")).toBe("My local server");
  });

  it("passes on the call options, reasoning levels and web search of the current configs", async () => {
    storage = await openStorage({ name: `wiring-${Math.random()}` });
    const settings = new ProviderSettings(storage);
    await settings.load();
    const registry = new LiveProviderRegistry(settings.store);
    const ref = { providerId: "openai", modelId: "gpt-5" };
    const config = configFromPreset("openai", { apiKey: "sk-test", models: [{ ...defaultModelInfo("openai", "gpt-5"), capabilities: { tools: true, images: true, reasoning: true, temperature: false } }] });
    await settings.saveProvider(config);
    expect(registry.callOptions(ref, { purpose: "turn", effort: "high" })).toMatchObject({ reasoning: "high", providerOptions: { openai: { store: false } }, sampling: false });
    expect(registry.reasoningLevels(ref)).toContain("high");
    expect(await registry.webSearch(ref)).toBeUndefined();
    await settings.saveProvider({ ...config, webSearch: true });
    expect(Object.keys((await registry.webSearch(ref))?.tools ?? {})).toEqual(["web_search"]);
    registry.dispose();
  });
});

describe("createAgentWiring", () => {
  function fakeHost(activeSession: string | undefined) {
    let disposed = 0;
    const host = {
      ui: {
        panels: [{ id: "chat", title: "Chat", render: () => <p>real chat panel</p> }],
        topBar: [{ id: "settings", render: () => <button type="button">Settings</button> }],
        settingsOpen: createStore(() => ({ open: false })),
        activeSessionId: () => activeSession,
      },
      dispose: () => void disposed++,
    } as unknown as AgentHost;
    return { host, disposed: () => disposed };
  }

  it("shows a placeholder until the agent chunk is attached, then the real panel and Settings", async () => {
    const { host, disposed } = fakeHost("ses_1");
    let release!: (host: AgentHost) => void;
    const wiring = createAgentWiring({ origin: "http://localhost", createHost: () => new Promise((resolve) => (release = resolve)) });
    expect(wiring.panels.map((p) => [p.id, p.title])).toEqual([["chat", "Chat"]]);
    const services = {} as WorkbenchServices;
    const panel = await render(<>{wiring.panels[0]!.render(services)}</>);
    const bar = await render(<>{wiring.topBar[0]!.render(services)}</>);
    views = [panel, bar];
    expect(panel.container.textContent).toBe("Loading the chat…");
    expect(bar.container.querySelector("button")?.disabled).toBe(true);
    expect(wiring.activeSessionId(services)).toBeUndefined();

    const attached = wiring.attach({} as Storage);
    release(host);
    await attached;
    await settle();
    expect(panel.container.textContent).toBe("real chat panel");
    expect(bar.container.querySelector("button")?.disabled).toBe(false);
    expect(wiring.activeSessionId(services)).toBe("ses_1");
    wiring.dispose();
    expect(disposed()).toBe(1);
  });

  it("says what failed when the agent chunk cannot load", async () => {
    const wiring = createAgentWiring({ origin: "http://localhost", createHost: async () => Promise.reject(new Error("chunk missing")) });
    const panel = await render(<>{wiring.panels[0]!.render({} as WorkbenchServices)}</>);
    views = [panel];
    await expect(wiring.attach({} as Storage)).rejects.toThrow("chunk missing");
    await settle();
    expect(panel.container.querySelector('[role="alert"]')?.textContent).toBe("The agent could not load: chunk missing. Reload the page to try again.");
  });
});
