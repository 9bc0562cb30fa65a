// Mounting the app: the frame renders at once; `start` hands over storage and the runtime
// factories when they are ready, `fail` swaps in the error screen.
import { createRoot } from "react-dom/client";
import "./app.css";
import { createStore } from "zustand/vanilla";
import { Dialogs, ErrorBoundary, loadScreenReaderMode, Notifications, startupOrder } from "../common";
import { App, type BootState } from "./app";
import type { Contributions } from "./contributions";
import { ErrorScreen, type FatalError } from "./error-screen";
import { createLayoutStore } from "./layout-store";
import type { AppServices } from "./services";
import { WorkspaceController } from "./workspace-controller";
import { errorMessage } from "../../base";
import { preloadMonaco } from "../editor";
import { StorageHealth } from "../storage";
import { loadXterm } from "../terminal";
import { browserPersistenceManager, createStoragePersistence } from "./storage-persistence";

export interface AppHandle {
  /** Opens the last workspace (or creates the first) and shows it. */
  start(services: AppServices): Promise<void>;
  /** Replaces the app with a full-page error (nothing works without storage). */
  fail(error: FatalError): void;
  /** Storage opened only for recovery: the recovery screen (export, free space, retry) instead of the workbench. */
  recover(storage: AppServices["storage"], error: FatalError): void;
  readonly notifications: Notifications;
  /** Unmounts and releases the open workspace. */
  dispose(): Promise<void>;
}

/** The error page for a render error that reached the app root. */
export function appCrash(error: unknown): FatalError {
  return {
    title: "webcode ran into an error",
    message: `Part of the page failed to render: ${errorMessage(error)}. Your files and sessions are still stored.`,
    steps: ["Reload the page.", "If it happens again right away, open webcode without the part after # in the address, then switch to another workspace."],
  };
}

export function mountApp(container: HTMLElement, contributions: Partial<Contributions> = {}): AppHandle {
  const boot = createStore<BootState>(() => ({ phase: "booting" }));
  const notifications = new Notifications();
  const health = new StorageHealth();
  const dialogs = new Dialogs();
  let layoutStorage: Storage | undefined;
  try {
    layoutStorage = window.localStorage;
  } catch {
    // Blocked storage (privacy settings): the layout is simply not remembered.
  }
  const layout = createLayoutStore(layoutStorage);
  const persistence = createStoragePersistence(browserPersistenceManager());
  loadScreenReaderMode(layoutStorage, window.location.search);
  // The terminal's prompt goes before Monaco (ui/common/startup-order.ts); the terminal releases it,
  // and Monaco waits while the user is typing into what has started.
  startupOrder.hold("terminal");
  const input = (event: Event) => startupOrder.input(event instanceof KeyboardEvent && event.key === "Enter" ? "command" : "key");
  window.addEventListener("keydown", input, { capture: true, passive: true });
  window.addEventListener("pointerdown", input, { capture: true, passive: true });
  void startupOrder.whenClear().then(() => {
    window.removeEventListener("keydown", input, { capture: true });
    window.removeEventListener("pointerdown", input, { capture: true });
  });
  const root = createRoot(container);
  root.render(
    // The last line of defence: anything the inner boundaries (parts, panels) miss shows an error
    // page with a Reload button instead of an empty page.
    <ErrorBoundary fallback={(error) => <ErrorScreen error={appCrash(error)} />}>
      <App
        boot={boot}
        notifications={notifications}
        dialogs={dialogs}
        layout={layout}
        health={health}
        persistence={persistence}
        contributions={{ panels: contributions.panels ?? [], topBar: contributions.topBar ?? [] }}
      />
    </ErrorBoundary>,
  );
  void preloadMonaco();
  // xterm loads beside Monaco and the runtime, not after them: the terminal is as urgent as the editor.
  requestAnimationFrame(() => void loadXterm().catch(() => undefined));
  let controller: WorkspaceController | undefined;
  return {
    notifications,
    async start(services) {
      // The browser runtime starts at once, beside Monaco: the terminal and the agent must not wait
      // for the editor (WebContainer, where it is tried, boots in the background: see main.tsx).
      controller = new WorkspaceController({
        ...services,
        onStorageError: (error) => {
          health.report(error);
          services.onStorageError?.(error);
        },
      });
      boot.setState({ phase: "ready", services, controller });
      try {
        await controller.start();
      } catch (error) {
        // Storage is open: the way out (export, delete, retry) needs no workspace.
        startupOrder.expedite();
        health.report(error);
        boot.setState({
          phase: "recovery",
          storage: services.storage,
          retry: () => location.reload(),
          error: {
            title: "webcode could not open a workspace",
            message: `Opening the workspace failed: ${errorMessage(error)}.`,
          },
        });
        return;
      }
      // Storage that is already full says so at once, not at the first refused save.
      await health.check(services.storage.maintenance).catch((error: unknown) => console.warn("webcode: storage check failed", error));
    },
    fail(error) {
      startupOrder.expedite();
      boot.setState({ phase: "fatal", error });
    },
    recover(storage, error) {
      startupOrder.expedite();
      boot.setState({ phase: "recovery", storage, error, retry: () => location.reload() });
    },
    async dispose() {
      dialogs.dispose();
      notifications.dispose();
      await controller?.dispose();
      root.unmount();
    },
  };
}
