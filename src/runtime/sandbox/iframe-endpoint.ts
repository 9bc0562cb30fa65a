// The page's sandbox endpoint: a hidden iframe sandboxed without allow-same-origin (an opaque
// origin: no IndexedDB of the app, no keys, no DOM of the page) that starts the runtime's worker
// from source text the page fetched from its own origin, and hands it one MessagePort. Ending a
// program removes the frame, which ends its worker whatever it is doing.
import type { HostMessage, SandboxEvent } from "./protocol";
import type { SandboxEndpoint, SandboxEndpointFactory } from "./sandbox-host";

export interface IframeEndpointOptions {
  /** URL of public/sandbox.html. */
  sandboxUrl: string;
  /** The worker's source (a self-contained module); fetched once and reused. */
  workerSource: () => Promise<string>;
  /** Where the frames go (document.body by default). */
  container?: () => HTMLElement;
}

export function iframeEndpointFactory(options: IframeEndpointOptions): SandboxEndpointFactory {
  let source: Promise<string> | undefined;
  const loadSource = () => {
    source ??= options.workerSource().catch((error: unknown) => {
      source = undefined;
      throw error;
    });
    return source;
  };
  return () => createIframeEndpoint(options, loadSource);
}

function createIframeEndpoint(options: IframeEndpointOptions, loadSource: () => Promise<string>): SandboxEndpoint {
  const channel = new MessageChannel();
  const eventListeners: Array<(event: SandboxEvent) => void> = [];
  const crashListeners: Array<(message: string) => void> = [];
  let ended = false;
  const crash = (message: string) => {
    if (ended) return;
    for (const listener of crashListeners) listener(message);
  };
  const frame = document.createElement("iframe");
  frame.setAttribute("sandbox", "allow-scripts");
  frame.title = "Program sandbox";
  frame.setAttribute("aria-hidden", "true");
  frame.tabIndex = -1;
  frame.style.display = "none";
  const onWindowMessage = (event: MessageEvent) => {
    if (event.source !== frame.contentWindow || ended) return;
    const data = event.data as { type?: string; message?: unknown } | undefined;
    if (data?.type === "sandbox-ready") {
      loadSource().then(
        (text) => {
          if (!ended) frame.contentWindow?.postMessage({ type: "boot", source: text }, "*", [channel.port2]);
        },
        (error: unknown) => crash(`The program runtime could not be loaded: ${error instanceof Error ? error.message : String(error)}`),
      );
    } else if (data?.type === "crash") {
      crash(typeof data.message === "string" ? data.message : "The program's worker stopped.");
    }
  };
  window.addEventListener("message", onWindowMessage);
  channel.port1.onmessage = (event: MessageEvent) => {
    if (ended) return;
    for (const listener of eventListeners) listener(event.data as SandboxEvent);
  };
  frame.src = options.sandboxUrl;
  (options.container?.() ?? document.body).appendChild(frame);
  return {
    send: (message: HostMessage) => channel.port1.postMessage(message),
    onEvent: (listener) => void eventListeners.push(listener),
    onCrash: (listener) => void crashListeners.push(listener),
    terminate() {
      if (ended) return;
      ended = true;
      window.removeEventListener("message", onWindowMessage);
      channel.port1.close();
      frame.remove();
    },
  };
}
