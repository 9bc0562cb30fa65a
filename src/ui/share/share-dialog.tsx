// The Share dialog: picks the session (the active one when known, else the most recent), scans the
// transcript and files for secrets (each file or the transcript can be left out; default: left
// out), shows the link's size against the cap and what was left out, and offers "Copy link" or,
// when it does not fit, "Download .webcode file".
import { useEffect, useId, useMemo, useState } from "react";
import { errorMessage, formatBytes, revealInvisibleChars } from "../../base";
import type { SessionRecord, Storage, WorkspaceRecord } from "../../storage";
import { SHARE_LINK_CAP, encodeShareFile, encodeShareLink, type OmitReason, type ShareLinkResult, type ShareSource } from "../../transfer";
import { Modal, ShownName, downloadBytes, safeFileName } from "../transfer";
import { SecretFindings } from "../transfer/secret-findings";
import { filesOnlySession, loadKnownSecrets, loadShareSource, scanSource, shareOptionsFor, workspaceSessions, type FindingGroup } from "./share-source";

export interface ShareDialogProps {
  storage: Storage;
  workspace: WorkspaceRecord;
  /** Writes pending file changes so the stored files are current. */
  flush(): Promise<void>;
  /** The session open in the chat, when the chat says (else the most recently updated). */
  preferredSessionId?: string;
  /** The app's address without a fragment; the link is this plus `#share=…`. */
  linkBase: string;
  onClose(): void;
  copyText?(text: string): Promise<void>;
  save?(bytes: Uint8Array, fileName: string): void;
  cap?: number;
}

const OMIT_LABELS: Record<OmitReason, string> = {
  "too-large": "too large for the link",
  excluded: "left out by you",
  secret: "may hold secrets",
};

/** Paths listed in "Left out"; the rest are counted. */
const MAX_LISTED_OMITTED = 30;

type Encoded = { state: "idle" } | { state: "working" } | { state: "done"; result: ShareLinkResult; link?: string } | { state: "failed"; message: string };

export function ShareDialog(props: ShareDialogProps) {
  const { storage, workspace, flush, preferredSessionId, linkBase, onClose, cap = SHARE_LINK_CAP } = props;
  const sessionFieldId = useId();
  const linkFieldId = useId();
  const [sessions, setSessions] = useState<SessionRecord[] | undefined>(undefined);
  const [sessionId, setSessionId] = useState<string | undefined>(undefined);
  const [source, setSource] = useState<ShareSource | undefined>(undefined);
  /** Configured API keys: only matched against, never put into the share. */
  const [knownSecrets, setKnownSecrets] = useState<readonly string[]>([]);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const [leftOut, setLeftOut] = useState<Set<string>>(new Set());
  const [encoded, setEncoded] = useState<Encoded>({ state: "idle" });
  const [copyState, setCopyState] = useState<"idle" | "copied" | "failed">("idle");
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    let live = true;
    void workspaceSessions(storage, workspace.id).then(
      (list) => {
        if (!live) return;
        setSessions(list);
        setSessionId(list.find((s) => s.id === preferredSessionId)?.id ?? list[0]?.id);
      },
      (error: unknown) => live && setProblem(`The sessions could not be read: ${errorMessage(error)}.`),
    );
    return () => {
      live = false;
    };
  }, [storage, workspace.id, preferredSessionId]);

  const session = useMemo(() => (sessions ? (sessions.find((s) => s.id === sessionId) ?? filesOnlySession(workspace)) : undefined), [sessions, sessionId, workspace]);

  useEffect(() => {
    if (!session) return;
    let live = true;
    setSource(undefined);
    // The configured keys are read with the source: no link is made before they are known.
    void Promise.all([loadShareSource(storage, workspace, session, flush), loadKnownSecrets(storage)]).then(
      ([loaded, secrets]) => {
        if (!live) return;
        setKnownSecrets(secrets);
        setSource(loaded);
        // Everything found is left out until the user says otherwise.
        setLeftOut(new Set(scanSource(loaded, secrets).map((g) => g.key)));
      },
      (error: unknown) => live && setProblem(`The session could not be read: ${errorMessage(error)}.`),
    );
    return () => {
      live = false;
    };
  }, [storage, workspace, session, flush]);

  const groups = useMemo(() => (source ? scanSource(source, knownSecrets) : []), [source, knownSecrets]);
  const options = useMemo(() => shareOptionsFor(groups, leftOut, knownSecrets), [groups, leftOut, knownSecrets]);

  useEffect(() => {
    if (!source) return;
    setEncoded({ state: "working" });
    setCopyState("idle");
    // Compressing takes a moment on big workspaces: let "Preparing" paint first.
    const timer = setTimeout(() => {
      try {
        const result = encodeShareLink(source, { ...options, cap });
        setEncoded({ state: "done", result, ...(result.fragment ? { link: shareLinkBase(linkBase) + result.fragment } : {}) });
      } catch (error) {
        setEncoded({ state: "failed", message: `The link could not be made: ${errorMessage(error)}.` });
      }
    }, 0);
    return () => clearTimeout(timer);
  }, [source, options, cap, linkBase]);

  const copy = async (link: string) => {
    try {
      await (props.copyText ?? ((text) => navigator.clipboard.writeText(text)))(link);
      setCopyState("copied");
    } catch {
      setCopyState("failed");
    }
  };

  const saveFile = () => {
    if (!source) return;
    setSaving(true);
    try {
      const file = encodeShareFile(source, options);
      (props.save ?? ((bytes, name) => downloadBytes(bytes, name, "application/octet-stream")))(file.bytes, safeFileName(source.session.title, ".webcode", "session"));
    } catch (error) {
      setProblem(errorMessage(error));
    } finally {
      setSaving(false);
    }
  };

  const toggle = (group: FindingGroup, checked: boolean) => {
    const next = new Set(leftOut);
    if (checked) next.add(group.key);
    else next.delete(group.key);
    setLeftOut(next);
  };

  const result = encoded.state === "done" ? encoded.result : undefined;
  const link = encoded.state === "done" ? encoded.link : undefined;

  return (
    <Modal label="Share" onClose={onClose} className="share-dialog">
      <p className="form-hint">
        The link carries the transcript and the workspace's files in its fragment: nothing is uploaded anywhere. Anyone with the link can read what it holds. API keys and
        settings are never included.
      </p>
      {sessions && sessions.length > 1 && (
        <>
          <label htmlFor={sessionFieldId}>Session</label>
          <select id={sessionFieldId} className="select transfer-select" value={sessionId} onChange={(event) => setSessionId(event.target.value)}>
            {sessions.map((s) => (
              <option key={s.id} value={s.id}>
                {revealInvisibleChars(s.title)}
              </option>
            ))}
          </select>
        </>
      )}
      {sessions && sessions.length === 1 && (
        <p>
          Session: <ShownName name={sessions[0]!.title} />
        </p>
      )}
      {sessions && sessions.length === 0 && <p>This workspace has no chat session yet: the share holds its files only.</p>}
      {problem && (
        <p className="transfer-error" role="alert">
          {problem}
        </p>
      )}
      {source && <SecretFindings groups={groups} leftOut={leftOut} onToggle={toggle} />}
      {!source && !problem && <p role="status">Reading the session…</p>}
      {encoded.state === "working" && <p role="status">Preparing the link…</p>}
      {encoded.state === "failed" && (
        <p className="transfer-error" role="alert">
          {encoded.message}
        </p>
      )}
      {result && (
        <>
          <p className={result.fits ? "share-size" : "share-size is-over"} role="status" aria-label="Link size">
            Link size: {formatBytes(result.length)} of {formatBytes(cap)}
            {result.fits ? "" : " — too large for a link"}
          </p>
          <meter className="share-meter" aria-label="Link size against the cap" min={0} max={cap} value={Math.min(result.length, cap)} />
          {result.omitted.length > 0 && (
            <>
              <p>Left out ({result.omitted.length}):</p>
              <ul className="transfer-path-list" aria-label="Left out of the share">
                {result.omitted.slice(0, MAX_LISTED_OMITTED).map((o) => (
                  <li key={o.path}>
                    {o.path} — {OMIT_LABELS[o.reason]}
                  </li>
                ))}
                {result.omitted.length > MAX_LISTED_OMITTED && <li className="transfer-more">and {result.omitted.length - MAX_LISTED_OMITTED} more</li>}
              </ul>
            </>
          )}
          {!result.fits && <p>The transcript alone is too large for a link. Download a .webcode file and send it instead; it opens the same way.</p>}
          {result.fits && result.omitted.some((o) => o.reason === "too-large") && <p className="form-hint">A .webcode file can hold the files too large for the link.</p>}
          {link && (
            <>
              <label htmlFor={linkFieldId}>Share link</label>
              <input id={linkFieldId} className="text-input share-link" readOnly value={link} onFocus={(event) => event.target.select()} />
              {copyState === "copied" && <p role="status">Link copied to the clipboard.</p>}
              {copyState === "failed" && (
                <p role="status" className="transfer-error">
                  The clipboard is not available here. Select the link above and copy it yourself.
                </p>
              )}
            </>
          )}
        </>
      )}
      <div className="modal-buttons">
        <button type="button" className="button" onClick={onClose}>
          Close
        </button>
        {result && (!result.fits || result.omitted.some((o) => o.reason === "too-large")) && (
          <button type="button" className="button button-primary" disabled={saving} onClick={saveFile}>
            Download .webcode file
          </button>
        )}
        {link && (
          <button type="button" className="button button-primary" onClick={() => void copy(link)}>
            Copy link
          </button>
        )}
      </div>
    </Modal>
  );
}

/**
 * The app's address a share link starts with: origin and path only. The sender's query parameters
 * (`?runtime=`, anything else) and fragment are theirs, not the recipient's, and never travel.
 */
export function shareLinkBase(href: string): string {
  try {
    const url = new URL(href);
    return `${url.origin}${url.pathname}`;
  } catch {
    return href.split(/[?#]/)[0]!;
  }
}
