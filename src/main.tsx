// Composition root: paints the app frame, opens storage, and tells the app how to open a
// workspace's files and its runtime: the browser runtime at once, moving to WebContainer when the
// page's one background boot succeeds (docs/architecture.md, "Runtime"). Plugs in the agent (chat,
// settings), import/export and sharing.
import type { WebContainer } from "@webcontainer/api";
import { errorMessage } from "./base";
import {
  clampBootTimeout,
  parseRuntimeOverride,
  PreviewHub,
  restoreRuntimeSettings,
  RUNTIME_SETTINGS_KEY,
  webContainerBlocked,
  WebContainerBoot,
  WorkspaceFiles,
  WorkspaceRuntime,
  stageReason,
  type RuntimeSelection,
  type RuntimeSettings,
} from "./runtime";
import { fetchDeploymentConfig, licensedBoot, resolveApiKey } from "./runtime/webcontainer-licence";
import { lazyCodeIntelligence } from "./runtime/code-intel/lazy";
import { checkBrowserIndexedDB, openMemoryStorage, openStorage, openStorageForRecovery, type Storage } from "./storage";
import { mountApp, startupOrder, storageFailure, type AppServices } from "./ui";
import { createAgentWiring } from "./ui/agent-wiring";
import { searchPanelContribution } from "./ui/search";
import { createShareUi, refuseRuntimeWhenReadOnly } from "./ui/share";
import { createTransferUi } from "./ui/transfer";
import { registerAppServiceWorker, updateTopBarItem } from "./ui/preview";
import { NetworkLog } from "./runtime";

/** How long after the start-up work the offline cache starts downloading the app. */
const SERVICE_WORKER_DELAY_MS = 3000;

/** `?bootTimeout=<ms>` overrides Settings → Runtime's boot timeout for this page (bounded). */
function bootTimeout(search: string, settings: RuntimeSettings): number {
  const value = Number(new URLSearchParams(search).get("bootTimeout"));
  return Number.isFinite(value) && value > 0 ? clampBootTimeout(value) : settings.bootTimeoutMs;
}

/** WebContainer runs in Chromium-based browsers (Chrome, Edge, Opera, Brave). */
function isChromiumBased(): boolean {
  const brands = (navigator as Navigator & { userAgentData?: { brands: Array<{ brand: string }> } }).userAgentData?.brands;
  if (brands?.some((b) => /Chromium/i.test(b.brand))) return true;
  return /\b(Chrome|Chromium|Edg|OPR)\//.test(navigator.userAgent);
}

/** The page's one WebContainer boot (not started until the first workspace has its browser runtime). */
function createWebContainerBoot(settings: RuntimeSettings): WebContainerBoot<WebContainer> {
  return new WebContainerBoot<WebContainer>({
    blocked: webContainerBlocked({
      override: parseRuntimeOverride(location.search),
      enabled: settings.useWebContainer,
      crossOriginIsolated: self.crossOriginIsolated === true,
      browserSupported: isChromiumBased(),
    }),
    timeoutMs: bootTimeout(location.search, settings),
    // One boot function per page: it applies the API key once, before the first boot, and Retry
    // reuses it (the real API throws on configureAPIKey after any boot call).
    boot: licensedBoot<WebContainer>({
      load: () => import("@webcontainer/api"),
      apiKey: () =>
        resolveApiKey({
          settings: settings.webContainerApiKey,
          build: import.meta.env.VITE_WEBCONTAINER_API_KEY as string | undefined,
          readConfig: fetchDeploymentConfig(location.href),
        }),
      hostname: location.hostname,
    }),
    teardown: (container) => container.teardown(),
  });
}

/**
 * just-bash and the WebContainer adapter are lazy chunks, requested as soon as the page starts (in
 * parallel with storage and Monaco), so the first workspace's terminal never waits on them in turn.
 */
const runtimeModules = () =>
  Promise.all([import("./runtime/browser"), import("./runtime/webcontainer"), import("./runtime/node/page-host"), import("./runtime/python/page-host")]);

/** git's remote settings (read per command, so Settings changes apply at once) and `git config --global`, kept with the settings. */
function gitOptions(storage: Storage) {
  return {
    remoteSettings: async () => {
      const settings = restoreRuntimeSettings(await storage.settings.get<unknown>(RUNTIME_SETTINGS_KEY).catch(() => undefined));
      return { corsProxy: settings.gitCorsProxy, token: settings.gitAccessToken, tokenHost: settings.gitTokenHost };
    },
    globalConfig: {
      read: async () => {
        const text = await storage.settings.get<unknown>(GIT_GLOBAL_CONFIG_KEY).catch(() => undefined);
        return typeof text === "string" ? text : "";
      },
      write: (text: string) => storage.settings.put(GIT_GLOBAL_CONFIG_KEY, text),
    },
  };
}

const GIT_GLOBAL_CONFIG_KEY = "git-global-config";

function runtimeStarter(webcontainer: WebContainerBoot<WebContainer>, modules: ReturnType<typeof runtimeModules>, preview: PreviewHub, storage: Storage, networkLog: NetworkLog) {
  return async (files: WorkspaceFiles): Promise<RuntimeSelection> => {
    const [{ createBrowserRuntime }, { attachWebContainer, probeWebContainer }, { pageNodeHost }, { pagePython }] = await modules;
    const runtime: WorkspaceRuntime<WebContainer> = new WorkspaceRuntime<WebContainer>({
      files,
      // node runs in the page's one isolated execution host, whose worker loads with the first program.
      browser: createBrowserRuntime(files, {
        reasonText: () => stageReason(runtime.stage),
        node: pageNodeHost(),
        python: pagePython(),
        git: gitOptions(storage),
        preview,
        networkLog,
      }),
      webcontainer,
      attach: (container, workspaceFiles, signal) => attachWebContainer(container, workspaceFiles, { signal }),
      probe: probeWebContainer,
    });
    // In the background, once there is a workspace to move (a no-op after the first time).
    setTimeout(() => webcontainer.start(), 0);
    return { runtime, upgrade: runtime };
  };
}

async function main(): Promise<void> {
  const modules = runtimeModules();
  modules.catch(() => undefined); // a failed load is reported when a workspace starts its runtime
  // The agent's diagnostics and code tool: TypeScript's language service in a worker of its own,
  // loaded with the agent's first edit or code query.
  // Every request made by a command, webfetch or an MCP server, listed in Settings → Permissions.
  const networkLog = new NetworkLog();
  const agent = createAgentWiring({
    origin: location.origin,
    networkLog,
    codeIntelligence: (fs) => lazyCodeIntelligence(async () => (await import("./runtime/code-intel")).createWorkerCodeIntelligence(fs), fs),
  });
  // The built-in preview's sessions; the service worker (offline cache, preview pages) asks them.
  const preview = new PreviewHub(location.origin);
  // The offline cache downloads the whole app: it waits until the terminal, chat and editor have
  // started (ui/common/startup-order.ts), plus a moment for the editor to settle.
  const serviceWorker = registerAppServiceWorker(preview, undefined, {
    after: startupOrder.whenClear().then(() => new Promise((resolve) => setTimeout(resolve, SERVICE_WORKER_DELAY_MS))),
  });
  const share = createShareUi({ activeSessionId: (services) => agent.activeSessionId(services) });
  const transfer = createTransferUi({ openShareFile: share.openShareFile });
  const app = mountApp(document.getElementById("root")!, {
    panels: [...agent.panels, searchPanelContribution, ...share.panels],
    topBar: [updateTopBarItem(serviceWorker), ...transfer.topBar, ...share.topBar, ...agent.topBar],
  });
  let storage: Storage;
  let temporaryStorage: AppServices["temporaryStorage"];
  try {
    storage = await openStorage({ onInvalidRecord: (error) => console.warn("webcode: skipped an invalid stored record", error) });
  } catch (error) {
    // The data may still be readable as it is: then the way out (export, free space, retry) stays reachable.
    const recovery = await openStorageForRecovery().catch(() => undefined);
    if (recovery) {
      app.recover(recovery, storageFailure(errorMessage(error)));
      return;
    }
    // IndexedDB does not open at all (storage disabled, some private modes): work in memory, and say so.
    try {
      const memory = await openMemoryStorage();
      storage = memory.storage;
      temporaryStorage = { reason: errorMessage(error), checkAgain: () => checkBrowserIndexedDB(memory.browserIndexedDB) };
    } catch (memoryError) {
      console.error("webcode: in-memory storage failed too", memoryError);
      app.fail(storageFailure(errorMessage(error)));
      return;
    }
  }
  const runtimeSettings = restoreRuntimeSettings(await storage.settings.get<unknown>(RUNTIME_SETTINGS_KEY).catch(() => undefined));
  const webcontainer = createWebContainerBoot(runtimeSettings);
  // The agent chunk loads while the workspace opens (before Monaco: ui/common/startup-order.ts);
  // the chat panel says so if it fails.
  startupOrder.hold("chat");
  agent
    .attach(storage)
    .catch((error: unknown) => console.error("webcode: the agent could not load", error))
    .finally(() => startupOrder.release("chat"));
  await app.start({
    storage,
    ...(temporaryStorage && { temporaryStorage }),
    openFiles: (workspaceId) =>
      WorkspaceFiles.open(storage, workspaceId, {
        onInvalidRecord: (error) => console.warn("webcode: skipped an invalid stored file", error),
      }),
    // A shared workspace runs nothing (terminal, preview, agent) until "Continue".
    startRuntime: refuseRuntimeWhenReadOnly(storage, runtimeStarter(webcontainer, modules, preview, storage, networkLog)),
  });
}

void main();
