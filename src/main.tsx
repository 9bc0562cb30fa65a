// Composition root: paints the app frame, opens storage, and tells the app how to open a
// workspace's files and which runtime to start (WebContainer when it boots, else the browser
// runtime). Plugs in the agent (chat, settings), import/export and sharing.
import { errorMessage } from "./base";
import { parseRuntimeOverride, selectRuntime, WorkspaceFiles, DEFAULT_BOOT_TIMEOUT_MS, type Runtime } from "./runtime";
import { openStorage, openStorageForRecovery, type Storage } from "./storage";
import { mountApp, storageFailure } from "./ui";
import { createAgentWiring } from "./ui/agent-wiring";
import { createShareUi, refuseRuntimeWhenReadOnly } from "./ui/share";
import { createTransferUi } from "./ui/transfer";

/** `?bootTimeout=<ms>` shortens or lengthens the wait for WebContainer (bounded). */
function bootTimeout(search: string): number {
  const value = Number(new URLSearchParams(search).get("bootTimeout"));
  return Number.isFinite(value) && value > 0 ? Math.min(120_000, Math.max(500, value)) : DEFAULT_BOOT_TIMEOUT_MS;
}

/** WebContainer runs in Chromium-based browsers (Chrome, Edge, Opera, Brave). */
function isChromiumBased(): boolean {
  const brands = (navigator as Navigator & { userAgentData?: { brands: Array<{ brand: string }> } }).userAgentData?.brands;
  if (brands?.some((b) => /Chromium/i.test(b.brand))) return true;
  return /\b(Chrome|Chromium|Edg|OPR)\//.test(navigator.userAgent);
}

async function startRuntime(files: WorkspaceFiles) {
  // just-bash and WebContainer's client are lazy chunks: the frame has painted by now.
  const [{ createBrowserRuntime }, { bootWebContainerRuntime }] = await Promise.all([
    import("./runtime/browser"),
    import("./runtime/webcontainer"),
  ]);
  const timeoutMs = bootTimeout(location.search);
  return selectRuntime({
    files,
    override: parseRuntimeOverride(location.search),
    crossOriginIsolated: self.crossOriginIsolated === true,
    browserSupported: isChromiumBased(),
    createBrowser: (reason): Runtime => createBrowserRuntime(files, { fallback: reason }),
    bootWebContainer: (signal) =>
      bootWebContainerRuntime(files, {
        boot: async () => {
          const { WebContainer } = await import("@webcontainer/api");
          return WebContainer.boot({ coep: "credentialless", workdirName: "workspace" });
        },
        timeoutMs,
        signal,
      }),
    timeoutMs,
  });
}

async function main(): Promise<void> {
  const agent = createAgentWiring({ origin: location.origin });
  const share = createShareUi({ activeSessionId: (services) => agent.activeSessionId(services) });
  const transfer = createTransferUi({ openShareFile: share.openShareFile });
  const app = mountApp(document.getElementById("root")!, {
    panels: [...agent.panels, ...share.panels],
    topBar: [...transfer.topBar, ...share.topBar, ...agent.topBar],
  });
  let storage: Storage;
  try {
    storage = await openStorage({ onInvalidRecord: (error) => console.warn("webcode: skipped an invalid stored record", error) });
  } catch (error) {
    // The data may still be readable as it is: then the way out (export, free space, retry) stays reachable.
    const recovery = await openStorageForRecovery().catch(() => undefined);
    if (recovery) app.recover(recovery, storageFailure(errorMessage(error)));
    else app.fail(storageFailure(errorMessage(error)));
    return;
  }
  // The agent chunk loads while the workspace opens; the chat panel says so if it fails.
  agent.attach(storage).catch((error: unknown) => console.error("webcode: the agent could not load", error));
  await app.start({
    storage,
    openFiles: (workspaceId) =>
      WorkspaceFiles.open(storage, workspaceId, {
        onInvalidRecord: (error) => console.warn("webcode: skipped an invalid stored file", error),
      }),
    // A shared workspace runs nothing (terminal, preview, agent) until "Continue".
    startRuntime: refuseRuntimeWhenReadOnly(storage, startRuntime),
  });
}

void main();
