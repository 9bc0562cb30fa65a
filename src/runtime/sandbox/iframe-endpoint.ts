// The page's sandbox endpoints: one hidden iframe, sandboxed without allow-same-origin (an opaque
// origin: no IndexedDB of the app, no keys, no DOM of the page), that receives the runtime's worker
// source once (fetched by the page from its own origin) and starts a fresh worker from it for every
// program, each with its own MessagePort to the page. Ending a program terminates its worker, at
// once, whatever it is doing; the frame stays for the next one.
import type { HostMessage, SandboxEvent } from "./protocol";
import type { SandboxEndpoint, SandboxEndpointFactory } from "./sandbox-host";
import { FrameWatchdog } from "./frame-watchdog";
import { scopedScript } from "./scoped-script";
import { SANDBOX_DID_NOT_START, START_TIMEOUT_MS } from "./sandbox-host";

/** What a crash says when the frame's process is gone (SandboxHost reads "memory" as out of memory). */
const FRAME_DIED = "The program's process was ended by the browser (out of memory).";

export interface IframeEndpointOptions {
  /** URL of public/sandbox.html. */
  sandboxUrl: string;
  /** The worker's source (a self-contained script); fetched once. */
  workerSource: () => Promise<string>;
  /** Where the frame goes (document.body by default). */
  container?: () => HTMLElement;
}

interface Frame {
  post(message: unknown, transfer?: Transferable[]): void;
  onCrash(id: number, listener: (message: string) => void): () => void;
  /** A program runs: the frame's heartbeat is watched until the returned function is called. */
  watch(): () => void;
  /** A program of the frame said something: its process is alive. */
  beat(): void;
}

export function iframeEndpointFactory(options: IframeEndpointOptions): SandboxEndpointFactory {
  let frame: Promise<Frame> | undefined;
  let nextId = 1;
  const loadFrame = () => {
    frame ??= createFrame(options, () => (frame = undefined)).catch((error: unknown) => {
      frame = undefined;
      throw error;
    });
    return frame;
  };
  return () => createEndpoint(nextId++, loadFrame);
}

function createFrame(options: IframeEndpointOptions, onDead: () => void): Promise<Frame> {
  // Fetched while the frame loads, not after: both are on the first program's path.
  const workerSource = options.workerSource();
  workerSource.catch(() => undefined);
  return new Promise<Frame>((resolve, reject) => {
    const element = document.createElement("iframe");
    element.setAttribute("sandbox", "allow-scripts");
    // Cross-origin isolation reaches the frame only when allowed: its workers then have shared
    // memory, which synchronous terminal reads need (stdin-mailbox.ts). The origin stays opaque.
    element.setAttribute("allow", "cross-origin-isolated");
    element.title = "Program sandbox";
    element.setAttribute("aria-hidden", "true");
    element.tabIndex = -1;
    element.style.display = "none";
    const crashListeners = new Map<number, (message: string) => void>();
    const post = (message: unknown, transfer: Transferable[] = []) => element.contentWindow?.postMessage(message, "*", transfer);
    // The frame's process is gone: every program in it ends now, and the next run gets a new frame.
    const watchdog = new FrameWatchdog(() => {
      window.removeEventListener("message", onMessage);
      element.remove();
      onDead();
      for (const listener of [...crashListeners.values()]) listener(FRAME_DIED);
      crashListeners.clear();
    });
    // A page that never says it is ready (refused framing, a blocked script) is dropped, so the
    // next run loads it anew instead of waiting on it too.
    const loading = setTimeout(() => {
      window.removeEventListener("message", onMessage);
      element.remove();
      reject(new Error(SANDBOX_DID_NOT_START));
    }, START_TIMEOUT_MS);
    const onMessage = (event: MessageEvent) => {
      if (event.source !== element.contentWindow) return;
      const data = event.data as { type?: string; id?: unknown; message?: unknown } | undefined;
      if (data?.type === "alive") {
        watchdog.beat();
      } else if (data?.type === "sandbox-ready") {
        clearTimeout(loading);
        workerSource.then(
          (source) => {
            post({ type: "boot", source: scopedScript(source) });
            resolve({
              post,
              onCrash(id, listener) {
                crashListeners.set(id, listener);
                return () => crashListeners.delete(id);
              },
              watch: () => watchdog.watch(),
              beat: () => watchdog.beat(),
            });
          },
          (error: unknown) => {
            element.remove();
            reject(new Error(`The program runtime could not be loaded: ${error instanceof Error ? error.message : String(error)}`));
          },
        );
      } else if (data?.type === "crash" && typeof data.id === "number") {
        crashListeners.get(data.id)?.(typeof data.message === "string" ? data.message : "The program's worker stopped.");
      }
    };
    window.addEventListener("message", onMessage);
    element.src = options.sandboxUrl;
    (options.container?.() ?? document.body).appendChild(element);
  });
}

function createEndpoint(id: number, loadFrame: () => Promise<Frame>): SandboxEndpoint {
  const channel = new MessageChannel();
  const eventListeners: Array<(event: SandboxEvent) => void> = [];
  const crashListeners: Array<(message: string) => void> = [];
  let ended = false;
  let stopListening = () => undefined as unknown;
  let stopWatching = () => undefined as unknown;
  let crashed: string | undefined;
  const crash = (message: string) => {
    if (ended || crashed !== undefined) return;
    crashed = message;
    for (const listener of crashListeners) listener(message);
  };
  let loaded: Frame | undefined;
  channel.port1.onmessage = (event: MessageEvent) => {
    if (ended) return;
    loaded?.beat();
    for (const listener of eventListeners) listener(event.data as SandboxEvent);
  };
  // Where the browser tells (MessagePort's close event): the worker's side of the port went away
  // before the page ended it, which only a worker the browser killed for its memory does.
  channel.port1.addEventListener("close", () => crash(FRAME_DIED));
  const ready = loadFrame().then((frame) => {
    loaded = frame;
    if (ended) return frame;
    stopListening = frame.onCrash(id, crash);
    stopWatching = frame.watch();
    frame.post({ type: "spawn", id }, [channel.port2]);
    return frame;
  });
  ready.catch((error: unknown) => crash(error instanceof Error ? error.message : String(error)));
  return {
    send: (message: HostMessage) => {
      if (ended) return;
      // A worker blocked on its terminal or on a synchronous child reads its shared mailbox, which the frame fills.
      if (message.type === "sync-answer") void ready.then((frame) => frame.post({ type: "stdin", id, data: message.data }), () => undefined);
      else if (message.type === "stdin" && message.sync) void ready.then((frame) => frame.post({ type: "stdin", id, data: message.data }), () => undefined);
      else channel.port1.postMessage(message);
    },
    onEvent: (listener) => void eventListeners.push(listener),
    onCrash: (listener) => {
      crashListeners.push(listener);
      // A spare worker whose frame died before its run: the run hears it at once.
      if (crashed !== undefined) queueMicrotask(() => listener(crashed!));
    },
    terminate() {
      if (ended) return;
      ended = true;
      channel.port1.close();
      stopListening();
      stopWatching();
      void ready.then((frame) => frame.post({ type: "kill", id }), () => undefined);
    },
  };
}
