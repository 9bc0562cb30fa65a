// The terminal panel: xterm (loaded lazily) connected to the runtime's interactive shell, refit
// whenever the panel changes size. Ctrl-C reaches the shell, which interrupts the running command.
import { useEffect, useRef, useState } from "react";
import { errorMessage } from "../../base";
import "./terminal.css";
import type { Runtime } from "../../runtime";
import type * as XtermSetup from "./xterm-setup";
import { IconButton, screenReaderMode, screenReaderModeOn, startupOrder, tabFocusMode } from "../common";
import { TerminalSession } from "./terminal-session";

export interface TerminalPanelProps {
  /** undefined while the runtime is starting. */
  runtime: Runtime | undefined;
  /** Why there is no runtime (it failed to start). */
  runtimeError?: string;
  /** Why there is no runtime when that is expected (a read-only shared session): shown plainly, not as an error. */
  idleMessage?: string;
}

type XtermModule = typeof XtermSetup;

let loading: Promise<XtermModule> | undefined;
/** Loads xterm (a lazy chunk); called early by the app so the terminal does not wait for it after the runtime. */
export function loadXterm(): Promise<XtermModule> {
  loading ??= import("./xterm-setup").catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

export function TerminalPanel({ runtime, runtimeError, idleMessage }: TerminalPanelProps) {
  const host = useRef<HTMLDivElement>(null);
  const [generation, setGeneration] = useState(0);
  const [error, setError] = useState<string | undefined>(undefined);
  const [ready, setReady] = useState(false);
  const clear = useRef<() => void>(() => {});

  useEffect(() => {
    if (!runtime) return;
    let cancelled = false;
    let session: TerminalSession | undefined;
    let observer: ResizeObserver | undefined;
    let frame = 0;
    let unsubscribeScreenReader = () => {};
    loadXterm().then(
      (xterm) => {
        const element = host.current;
        if (cancelled || !element) return;
        const { terminal, fit } = xterm.createTerminal({ screenReaderMode: screenReaderModeOn() });
        // Settings → Accessibility switches it on a running terminal too.
        unsubscribeScreenReader = screenReaderMode.subscribe((state) => (terminal.options.screenReaderMode = screenReaderModeOn(state)));
        // With "Tab moves focus" on (Ctrl+M), Tab is left to the browser instead of going to the shell.
        terminal.attachCustomKeyEventHandler((event) => !(event.key === "Tab" && tabFocusMode.getState().on));
        terminal.open(element);
        fit.fit();
        try {
          session = new TerminalSession(runtime, terminal);
        } catch (e) {
          unsubscribeScreenReader();
          terminal.dispose();
          setError(`The shell could not start: ${errorMessage(e)}. Use "Restart shell" to try again.`);
          return;
        }
        clear.current = () => terminal.clear();
        observer = new ResizeObserver(() => {
          cancelAnimationFrame(frame);
          frame = requestAnimationFrame(() => {
            // A hidden panel measures 0 x 0; keep the last size until it is visible again.
            if (element.clientWidth > 0 && element.clientHeight > 0) fit.fit();
          });
        });
        observer.observe(element);
        setReady(true);
        element.dataset.terminalReady = "true";
        startupOrder.release("terminal");
      },
      (e: unknown) => !cancelled && setError(`The terminal could not be loaded: ${errorMessage(e)}. Reload the page to try again.`),
    );
    return () => {
      cancelled = true;
      unsubscribeScreenReader();
      cancelAnimationFrame(frame);
      observer?.disconnect();
      session?.dispose();
      clear.current = () => {};
      if (host.current) delete host.current.dataset.terminalReady;
      setReady(false);
      setError(undefined);
    };
  }, [runtime, generation]);

  // A terminal that will not start (no runtime here, or it failed) holds nothing back.
  const stuck = Boolean(runtimeError ?? error ?? idleMessage);
  useEffect(() => {
    if (stuck) startupOrder.release("terminal");
  }, [stuck]);
  const message = runtimeError ?? error ?? idleMessage ?? (!runtime ? "Starting the runtime…" : !ready ? "Starting the shell…" : undefined);
  const role = runtimeError || error ? "alert" : idleMessage ? undefined : "status";
  return (
    <section className="terminal-panel" aria-label="Terminal">
      <header className="panel-header">
        <h2 className="panel-title">Terminal</h2>
        <div className="panel-actions">
          <IconButton icon="clear" label="Clear terminal" disabled={!ready} onClick={() => clear.current()} />
          <IconButton icon="refresh" label="Restart shell" disabled={!runtime} onClick={() => setGeneration((g) => g + 1)} />
        </div>
      </header>
      <div className="terminal-body">
        <div ref={host} className="terminal-host" onClick={() => host.current?.querySelector("textarea")?.focus()} />
        {message && (
          <div className="terminal-message" role={role}>
            {message}
          </div>
        )}
      </div>
    </section>
  );
}
