// The banner under the top bar: what a read-only shared workspace means, or why the runtime failed.
// (Why Node.js is unavailable is not a banner: the status bar's runtime item says it.) A dismissal
// is remembered (in settings, by the notice's kind) until the kind changes.
import { useEffect, useState } from "react";
import type { Storage } from "../../storage";
import { Icon, focusRegion } from "../common";

/** Settings key: the kind of notice last dismissed ("boot-timeout", "read-only", ...). */
export const DISMISSED_NOTICE_KEY = "ui.runtimeNoticeDismissed";

export const READ_ONLY_NOTICE =
  "This workspace was opened from a share and is read-only: you can read its files and transcript, but not change them, and nothing runs here (no terminal, preview or agent). Press Continue in the top bar to make an editable copy.";

export interface RuntimeNoticeProps {
  failure?: string;
  /** The open workspace is a read-only shared session (its runtime is refused on purpose). */
  readOnly?: boolean;
  settings?: Pick<Storage["settings"], "get" | "put">;
}

/** Which notice shows, by kind: a dismissal of one kind does not hide another. */
export function noticeKind(props: Pick<RuntimeNoticeProps, "failure" | "readOnly">): string | undefined {
  if (props.readOnly) return "read-only";
  if (props.failure) return "failure";
  return undefined;
}

export function RuntimeNotice(props: RuntimeNoticeProps) {
  const { settings } = props;
  const kind = noticeKind(props);
  // undefined: not read yet (nothing shows, so a dismissed notice does not flash on every load).
  const [dismissed, setDismissed] = useState<string | null | undefined>(settings ? undefined : null);
  useEffect(() => {
    if (!settings) return;
    let live = true;
    settings.get<string>(DISMISSED_NOTICE_KEY).then(
      (value) => live && setDismissed(value ?? null),
      () => live && setDismissed(null),
    );
    return () => {
      live = false;
    };
  }, [settings]);

  if (kind === undefined || dismissed === undefined || dismissed === kind) return null;

  const dismiss = () => {
    setDismissed(kind);
    void settings?.put(DISMISSED_NOTICE_KEY, kind).catch(() => {
      // Not remembering a dismissal only means the notice shows again next time.
    });
    // The button is about to go; leave the keyboard somewhere useful rather than on <body>.
    requestAnimationFrame(() => focusRegion(document, ["editor", "files"]));
  };
  const closeButton = (
    <button type="button" className="icon-button" aria-label="Dismiss read-only notice" onClick={dismiss}>
      <Icon name="close" />
    </button>
  );

  if (props.readOnly) {
    return (
      <div className="runtime-notice" role="status" aria-label="Read-only notice">
        <Icon name="info" />
        <p>
          <strong>Read-only</strong> {READ_ONLY_NOTICE}
        </p>
        {closeButton}
      </div>
    );
  }
  return (
    <div className="runtime-notice runtime-notice-error" role="alert">
      <Icon name="error" />
      <p>{props.failure}</p>
    </div>
  );
}
