// The "Backup" part of the Settings dialog: "Back up everything" saves one file with every workspace,
// session and setting (never keys); "Restore from backup" merges such a file back without
// overwriting anything and says what was added. A backup is untrusted input: settings in it that
// would let the agent do more than now (restore-review.ts) are listed in a confirmation first, and
// its default keeps today's settings while the rest is restored.
import { useEffect, useId, useRef, useState } from "react";
import { errorMessage, formatBytes } from "../../base";
import type { RestoreSummary, SettingRecord, Storage } from "../../storage";
import { modalKeyDown, useRestoreFocus } from "../common";
import { restoreLoosenings, settingName, type RestoreLoosening } from "./restore-review";

export interface BackupActions {
  storage: Pick<Storage, "backup" | "restoreBackup">;
  /** Writes pending file changes first, so the backup has them. */
  flush(): Promise<void>;
  /** Saves the backup file (a download in the page). */
  save(bytes: Uint8Array, fileName: string): void;
  /** After a restore added something: the workspace list follows. */
  onRestored(): Promise<void> | void;
  now?: () => Date;
}

export function backupFileName(date: Date): string {
  return `webcode-backup-${date.toISOString().slice(0, 10)}.zip`;
}

export function describeRestore(summary: RestoreSummary): string {
  const parts: string[] = [];
  const n = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
  if (summary.workspacesAdded.length > 0) parts.push(`${n(summary.workspacesAdded.length, "workspace", "workspaces")} added (${summary.workspacesAdded.join(", ")}) with ${n(summary.filesAdded, "file", "files")}`);
  for (const [from, to] of summary.workspacesRenamed) parts.push(`"${from}" was added as "${to}" because the name is taken`);
  if (summary.sessionsAdded > 0) parts.push(`${n(summary.sessionsAdded, "session", "sessions")} with ${n(summary.messagesAdded, "message", "messages")} added`);
  if (summary.settingsAdded.length > 0) parts.push(`settings added: ${summary.settingsAdded.join(", ")}`);
  if (summary.settingsWithheld.length > 0) parts.push(`your current ${summary.settingsWithheld.map(settingName).join(", ")} were kept (the backup's would allow more)`);
  const kept = summary.workspacesKept + summary.sessionsKept;
  const tail = kept > 0 ? ` ${n(summary.workspacesKept, "workspace", "workspaces")} and ${n(summary.sessionsKept, "session", "sessions")} were already here and were left as they are.` : "";
  return parts.length === 0 ? `Nothing new to add: everything in the backup is already here.${tail}` : `Restored: ${parts.join("; ")}.${tail}`;
}

/** The keys to leave out of a restore when the user keeps today's settings. */
export function withheldSettings(loosenings: readonly RestoreLoosening[]): string[] {
  return [...new Set(loosenings.map((loosening) => loosening.setting))];
}

interface PendingReview {
  loosenings: RestoreLoosening[];
  answer(apply: boolean): void;
}

export function BackupSection({ actions }: { actions: BackupActions }) {
  const baseId = useId();
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<{ kind: "info" | "error"; text: string } | undefined>(undefined);
  const [review, setReview] = useState<PendingReview | undefined>(undefined);

  /** Settings that would loosen what the agent may do are applied only if the user says so. */
  const reviewSettings = async (added: readonly SettingRecord[]): Promise<string[]> => {
    const loosenings = restoreLoosenings(added);
    if (loosenings.length === 0) return [];
    const apply = await new Promise<boolean>((resolve) =>
      setReview({
        loosenings,
        answer: (choice) => {
          setReview(undefined);
          resolve(choice);
        },
      }),
    );
    return apply ? [] : withheldSettings(loosenings);
  };

  const backUp = async () => {
    setBusy(true);
    setStatus(undefined);
    try {
      await actions.flush();
      const bytes = await actions.storage.backup();
      const name = backupFileName(actions.now?.() ?? new Date());
      actions.save(bytes, name);
      setStatus({ kind: "info", text: `Saved ${name} (${formatBytes(bytes.length)}). Keys are not in it: add them again after restoring elsewhere.` });
    } catch (error) {
      setStatus({ kind: "error", text: `The backup could not be made: ${errorMessage(error)}` });
    } finally {
      setBusy(false);
    }
  };

  const restore = async (file: File | undefined) => {
    if (!file) return;
    setBusy(true);
    setStatus(undefined);
    try {
      const summary = await actions.storage.restoreBackup(new Uint8Array(await file.arrayBuffer()), reviewSettings);
      setStatus({ kind: "info", text: describeRestore(summary) });
      await actions.onRestored();
    } catch (error) {
      setStatus({ kind: "error", text: `"${file.name}" was not restored: ${errorMessage(error)} Nothing was changed.` });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="settings-section" aria-labelledby={`${baseId}-title`}>
      <h3 id={`${baseId}-title`}>Backup</h3>
      <p className="form-hint">
        One file with every workspace (binary files included), every session and your settings, without API keys. Restoring adds what is not here yet and never
        overwrites anything.
      </p>
      <div className="form-row form-row-inline">
        <button type="button" className="button" disabled={busy} onClick={() => void backUp()}>
          Back up everything
        </button>
        <label className={`button ${busy ? "is-disabled" : ""}`} htmlFor={`${baseId}-restore`}>
          Restore from backup
        </label>
        <input
          id={`${baseId}-restore`}
          className="visually-hidden"
          type="file"
          accept=".zip,application/zip"
          disabled={busy}
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = "";
            void restore(file);
          }}
        />
      </div>
      {status && (
        <p className={status.kind === "error" ? "input-error" : "form-hint"} role={status.kind === "error" ? "alert" : "status"}>
          {status.text}
        </p>
      )}
      {review && <LooseningDialog review={review} />}
    </section>
  );
}

/**
 * "Keep your current settings?": lists each loosening; the first button, focused (so Enter picks
 * it), and Escape keep today's settings; the backup's apply only when the user chooses so.
 */
function LooseningDialog({ review }: { review: PendingReview }) {
  const titleId = useId();
  const messageId = useId();
  const keep = useRef<HTMLButtonElement>(null);
  useRestoreFocus();
  useEffect(() => keep.current?.focus(), []);
  const onKeyDown = modalKeyDown(() => review.answer(false));
  return (
    <div className="modal-backdrop">
      <div
        className="modal"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={messageId}
        onKeyDown={(event) => {
          onKeyDown(event);
          // Inside the Settings dialog: its own Tab trap must not act on this dialog's keys too.
          event.stopPropagation();
        }}
      >
        <h2 id={titleId}>Keep your current settings?</h2>
        <p id={messageId}>
          The backup has settings that would let the agent do more without asking, or send data to new places. Everything else in the backup is restored either way.
        </p>
        <ul aria-label="Settings in the backup that allow more">
          {review.loosenings.map((loosening, i) => (
            <li key={i}>{loosening.text}</li>
          ))}
        </ul>
        <div className="modal-buttons">
          <button ref={keep} type="button" className="button button-primary" onClick={() => review.answer(false)}>
            Keep my current settings
          </button>
          <button type="button" className="button" onClick={() => review.answer(true)}>
            Use the backup's settings
          </button>
        </div>
      </div>
    </div>
  );
}
