// The page's side of webcode's service worker (src/sw/service-worker.ts): registering it, answering
// its requests for the built-in preview's pages from this page's previews, and noticing when a new
// build is ready (the update is applied when the user asks: the page reloads on the new build).
import { createStore, type StoreApi } from "zustand/vanilla";
import type { PreviewHub } from "../../runtime";
import { previewRequestPolicies, type PreviewRequestPolicies } from "./request-policy";

export interface ServiceWorkerState {
  /** "unsupported": no service workers here (some private modes): no offline and no built-in preview. */
  status: "registering" | "ready" | "unsupported" | "failed";
  /** A new build is installed and waits for the user's "Reload to update". */
  updateReady: boolean;
  error?: string;
}

export interface AppServiceWorker {
  readonly store: StoreApi<ServiceWorkerState>;
  /** Resolves when the worker is active (true), or cannot be (false). */
  ready(): Promise<boolean>;
  /** Activates the waiting build and reloads the page on it. */
  applyUpdate(): void;
}

const READY_TIMEOUT_MS = 30_000;

/** Registers /sw.js and answers its preview requests from `hub`. */
/** Registers the page's service worker now if it is waiting for the start-up work (a preview needs it). */
let startNow: () => void = () => {};
export function startAppServiceWorker(): void {
  startNow();
}

/**
 * @param options.after when to register (and so start caching the whole app for offline use, some
 * 25 MB): after the page's start-up work, so the first visit does not share its network and threads
 * with that download. A preview asked for earlier registers at once.
 */
export function registerAppServiceWorker(
  hub: PreviewHub,
  container: ServiceWorkerContainer | undefined = navigator.serviceWorker,
  options: { after?: Promise<unknown>; policies?: PreviewRequestPolicies } = {},
): AppServiceWorker {
  const policies = options.policies ?? previewRequestPolicies;
  const store = createStore<ServiceWorkerState>(() => ({ status: container ? "registering" : "unsupported", updateReady: false }));
  if (!container) {
    return { store, ready: () => Promise.resolve(false), applyUpdate: () => undefined };
  }
  container.addEventListener("message", (event: MessageEvent) => {
    const data = event.data as { type?: string; url?: string; mode?: "page" | "raw" } | null;
    const port = event.ports[0];
    if (data?.type !== "webcode-preview-request" || !port || typeof data.url !== "string") return;
    const url = data.url;
    void hub.handle(url, data.mode === "raw" ? "raw" : "page").then(
      (response) => {
        if (!response) return port.postMessage({ unknown: true });
        const body = typeof response.body === "string" ? response.body : response.body.slice().buffer;
        const allow = policies.allowedFor(url);
        port.postMessage({ status: response.status, contentType: response.contentType, body, location: response.location, allow }, typeof body === "string" ? [] : [body]);
      },
      (error: unknown) => {
        port.postMessage({ status: 500, contentType: "text/plain; charset=utf-8", body: `The preview failed: ${error instanceof Error ? error.message : String(error)}` });
      },
    );
  });
  container.startMessages?.();
  let reloading = false;
  let begin!: () => void;
  const started = new Promise<void>((resolve) => (begin = resolve));
  startNow = () => begin();
  void (options.after ?? Promise.resolve()).then(
    () => begin(),
    () => begin(),
  );
  const registration = started.then(() => container.register("/sw.js", { scope: "/" })).then(
    (reg) => {
      const watch = (worker: ServiceWorker | null) => {
        if (!worker) return;
        const check = () => {
          // A waiting worker while another controls the page is a new build, not the first install.
          if (worker.state === "installed" && container.controller) store.setState({ updateReady: true });
        };
        check();
        worker.addEventListener("statechange", check);
      };
      watch(reg.waiting);
      watch(reg.installing);
      reg.addEventListener("updatefound", () => watch(reg.installing));
      container.addEventListener("controllerchange", () => {
        if (store.getState().updateReady && !reloading) {
          reloading = true;
          location.reload();
        }
      });
      return reg;
    },
    (error: unknown) => {
      store.setState({ status: "failed", error: error instanceof Error ? error.message : String(error) });
      return undefined;
    },
  );
  let ready: Promise<boolean> | undefined;
  const whenReady = () => new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), READY_TIMEOUT_MS);
    void registration.then((reg) => {
      if (!reg) {
        clearTimeout(timer);
        resolve(false);
        return;
      }
      void container.ready.then(() => {
        clearTimeout(timer);
        store.setState({ status: "ready" });
        resolve(true);
      });
    });
  });
  return {
    store,
    ready: () => {
      begin();
      return (ready ??= whenReady());
    },
    applyUpdate() {
      void registration.then((reg) => reg?.waiting?.postMessage({ type: "skip-waiting" }));
    },
  };
}
