// The status bar's runtime item: where commands run, said quietly ("Browser runtime", "Starting
// Node.js (WebContainer)…", "Node.js (WebContainer)", "WebContainer unavailable", with the browser runtime running everything). The reason, and Retry
// after a timeout or failure, are one click away in a small panel above the status bar; no banner
// covers the workbench.
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { describeFallback, type RuntimeStage } from "../../runtime";
import type { RuntimeStatus } from "./workspace-controller";

export function runtimeLabel(runtime: RuntimeStatus | undefined, readOnly: boolean): string {
  // A read-only shared session has no runtime on purpose: not a failure.
  if (readOnly) return "Read-only";
  if (!runtime || runtime.status === "starting") return "Starting runtime…";
  if (runtime.status === "failed") return "Runtime failed";
  return runtime.stage ? stageLabel(runtime.stage) : runtime.runtime.kind === "webcontainer" ? "Node.js (WebContainer)" : "Browser runtime";
}

export function stageLabel(stage: RuntimeStage): string {
  switch (stage.stage) {
    case "browser":
      return "Browser runtime";
    case "starting":
      return "Starting Node.js (WebContainer)…";
    case "node":
      return "Node.js (WebContainer)";
    case "unavailable":
      return "WebContainer unavailable";
  }
}

/** The words behind the item: what runs the commands now, what works there, and why WebContainer is not there. */
function stageDetail(stage: RuntimeStage): { title: string; detail: string } {
  switch (stage.stage) {
    case "node":
      return {
        title: "Node.js (WebContainer)",
        detail: "Commands, the agent's bash and new terminals run in Node.js inside this tab, with npm and dev servers; the Preview shows their servers.",
      };
    case "starting":
      return {
        title: "Starting Node.js (WebContainer)…",
        detail:
          "WebContainer is starting in the background. Until it is ready the browser runtime runs everything (files, the terminal's file and text commands, the agent); then new commands run in Node.js.",
      };
    case "browser":
    case "unavailable":
      return describeFallback(stage.reason);
  }
}

export function RuntimeStatusItem({ runtime, readOnly, retry }: { runtime: RuntimeStatus | undefined; readOnly: boolean; retry?: () => void }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const panelId = useId();
  const label = runtimeLabel(runtime, readOnly);
  const stage = !readOnly && runtime?.status === "ready" ? runtime.stage : undefined;
  const state = readOnly ? "read-only" : stage ? `stage-${stage.stage}` : (runtime?.status ?? "starting");

  useEffect(() => {
    if (open) panel.current?.querySelector<HTMLElement>("button")?.focus();
  }, [open]);
  // A stage change (e.g. Retry succeeded) keeps the panel's words current; none to show: close.
  useEffect(() => {
    if (!stage) setOpen(false);
  }, [stage]);

  if (!stage) {
    return (
      <span
        className={`status-item status-runtime status-runtime-${state}`}
        title={readOnly ? "Shared session opened read-only: nothing runs until you press Continue in the top bar." : undefined}
      >
        {label}
      </span>
    );
  }

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "Escape") {
      event.stopPropagation();
      close();
    }
  };
  const { title, detail } = stageDetail(stage);
  const canRetry = stage.stage === "unavailable" && stage.canRetry && retry;
  return (
    <span className="status-runtime-wrap" onKeyDown={onKeyDown}>
      <button
        ref={button}
        type="button"
        className={`status-item status-button status-runtime status-runtime-button status-runtime-${state}`}
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        aria-label={`Runtime: ${label}`}
        onClick={() => setOpen((o) => !o)}
      >
        {label}
      </button>
      {open && (
        <div ref={panel} id={panelId} className="runtime-panel" role="dialog" aria-label="Runtime details">
          <p className="runtime-panel-title">{title}</p>
          <p className="runtime-panel-detail">{detail}</p>
          <div className="runtime-panel-actions">
            {canRetry && (
              <button
                type="button"
                className="button button-primary"
                onClick={() => {
                  retry();
                  close();
                }}
              >
                Retry
              </button>
            )}
            <button type="button" className="button" onClick={close}>
              Close
            </button>
          </div>
        </div>
      )}
    </span>
  );
}
