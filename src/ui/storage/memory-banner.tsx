// The banner shown while webcode runs on in-memory storage because the browser would not open
// IndexedDB (storage disabled for the site, some private modes): nothing is kept after the tab
// closes, so it says so and offers the ways to keep the work: export the workspace as a zip, and
// Retry, which checks whether the browser's storage opens now and then offers to reload onto it.
import { useState } from "react";
import { errorMessage } from "../../base";
import type { Dialogs } from "../common";

export const MEMORY_STORAGE_MESSAGE =
  "webcode is running on temporary storage in this tab: files, sessions and settings are lost when the tab is closed or reloaded. Export your work as a zip to keep it.";

export interface MemoryStorageBannerProps {
  /** Why IndexedDB did not open. */
  reason: string;
  dialogs: Dialogs;
  /** Undefined when the browser's storage opens now, else why not. */
  checkAgain(): Promise<string | undefined>;
  /** Exports the open workspace (with its unsaved tabs) as a zip; undefined until the workbench is up. */
  exportWorkspace?: () => Promise<void>;
  /** Reloads the page onto the browser's storage (the user has agreed to leave this tab's work). */
  reload(): void;
}

export function MemoryStorageBanner({ reason, dialogs, checkAgain, exportWorkspace, reload }: MemoryStorageBannerProps) {
  const [busy, setBusy] = useState<"export" | "retry" | undefined>();
  const [problem, setProblem] = useState<string | undefined>();
  const run = async (kind: "export" | "retry", action: () => Promise<void>) => {
    setBusy(kind);
    setProblem(undefined);
    try {
      await action();
    } catch (error) {
      setProblem(`${kind === "export" ? "Export failed" : "Retry failed"}: ${errorMessage(error)}.`);
    } finally {
      setBusy(undefined);
    }
  };
  const retry = async () => {
    const still = await checkAgain();
    if (still !== undefined) {
      setProblem(`Browser storage still cannot be opened: ${still.replace(/\.+$/, "")}.`);
      return;
    }
    const answer = await dialogs.ask({
      kind: "choice",
      title: "Browser storage works again",
      message:
        "Reload webcode to use it. What you did in this tab lives only in memory and is not carried over: export it first if you want to keep it.",
      buttons: [
        { id: "cancel", label: "Not now" },
        ...(exportWorkspace ? [{ id: "export", label: "Export, then reload", primary: true }] : []),
        { id: "reload", label: "Reload without this tab's work", danger: true },
      ],
      cancelId: "cancel",
    });
    if (answer === "export" && exportWorkspace) {
      await exportWorkspace();
      reload();
    } else if (answer === "reload") {
      reload();
    }
  };
  return (
    <div className="storage-banner" role="alert" aria-label="Nothing is being saved">
      <strong>Nothing is being saved.</strong> <span>{`The browser would not open webcode's storage (${reason.replace(/\.+$/, "")}). ${MEMORY_STORAGE_MESSAGE}`}</span>
      {problem && <span className="storage-banner-problem">{` ${problem}`}</span>}
      <span className="storage-banner-actions">
        <button
          type="button"
          className="button button-primary"
          disabled={!exportWorkspace || busy !== undefined}
          onClick={() => exportWorkspace && void run("export", exportWorkspace)}
        >
          {busy === "export" ? "Exporting…" : "Export workspace (zip)"}
        </button>
        <button type="button" className="button" disabled={busy !== undefined} onClick={() => void run("retry", retry)}>
          {busy === "retry" ? "Checking…" : "Retry"}
        </button>
      </span>
    </div>
  );
}
