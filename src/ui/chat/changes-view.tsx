// "Changes": the files this session changed, each with a diff (Monaco's, injected by the shell so
// its loader is reused; a plain diff otherwise) and a per-file revert. A file back to its content
// from before the session is marked "reverted" (its diff would be empty).
import { useEffect, useMemo, useState, type ReactNode } from "react";
import { errorMessage } from "../../base";
import type { MessageEntry } from "./chat-store";
import { changedFiles, coarseLineDiff, type ChangedFile, type ChangesSource, type FileContent } from "./session-changes";
import { DiffBlock } from "./tool-part-view";

export interface DiffRendererProps {
  path: string;
  original: string;
  modified: string;
}

/** Renders a side-by-side diff (the shell passes one built on Monaco's diff editor). */
export type DiffRenderer = (props: DiffRendererProps) => ReactNode;

export interface ChangesViewProps {
  entries: readonly MessageEntry[];
  source: ChangesSource;
  renderDiff?: DiffRenderer;
  onOpenFile?(path: string): void;
  /** Asks before reverting a file; defaults to yes. */
  confirm?(message: string): Promise<boolean>;
  onProblem?(message: string): void;
}

/** Whether the file's content now is what it was before the session changed it. */
export async function isUnchanged(source: ChangesSource, file: ChangedFile): Promise<boolean> {
  const [before, after] = await Promise.all([source.before(file), source.after(file.path)]);
  if (before === null || after === null) return before === after;
  if (typeof before === "string" && typeof after === "string") return before === after;
  return false;
}

export function ChangesView({ entries, source, renderDiff, onOpenFile, confirm, onProblem }: ChangesViewProps) {
  const files = useMemo(() => changedFiles(entries), [entries]);
  const [selected, setSelected] = useState<string | undefined>();
  const [reverted, setReverted] = useState<ReadonlySet<string>>(new Set());
  const [checks, setChecks] = useState(0);
  const current = files.find((f) => f.path === selected) ?? files[0];
  useEffect(() => {
    let live = true;
    // A file whose "before" cannot be read is not marked: its own view shows why.
    Promise.all(files.map((file) => isUnchanged(source, file).catch(() => false))).then((same) => {
      if (live) setReverted(new Set(files.filter((_, i) => same[i]).map((f) => f.path)));
    });
    return () => {
      live = false;
    };
  }, [files, source, checks, selected]);
  if (files.length === 0) {
    return <p className="changes-empty">The agent has not changed any files in this session yet.</p>;
  }
  return (
    <div className="changes-view">
      <ul className="changes-list" aria-label="Changed files">
        {files.map((file) => (
          <li key={file.path}>
            <button
              type="button"
              className={file.path === current?.path ? "changes-file changes-file-selected" : "changes-file"}
              aria-current={file.path === current?.path ? "true" : undefined}
              onClick={() => setSelected(file.path)}
            >
              {file.path}
              {reverted.has(file.path) && <span className="changes-file-reverted"> (reverted)</span>}
            </button>
          </li>
        ))}
      </ul>
      {current && (
        <FileChange
          key={`${current.path}:${entries.length}`}
          file={current}
          source={source}
          renderDiff={renderDiff}
          onOpenFile={onOpenFile}
          confirm={confirm}
          onProblem={onProblem}
          onReverted={() => setChecks((n) => n + 1)}
        />
      )}
    </div>
  );
}

type Loaded = { status: "loading" } | { status: "error"; message: string } | { status: "ready"; before: FileContent; after: FileContent };

function FileChange(props: {
  file: ChangedFile;
  source: ChangesSource;
  renderDiff?: DiffRenderer;
  onOpenFile?(path: string): void;
  confirm?(message: string): Promise<boolean>;
  onProblem?(message: string): void;
  onReverted?(): void;
}) {
  const { file, source, renderDiff, onOpenFile, confirm, onProblem, onReverted } = props;
  const [loaded, setLoaded] = useState<Loaded>({ status: "loading" });
  const [version, setVersion] = useState(0);
  useEffect(() => {
    let live = true;
    setLoaded({ status: "loading" });
    Promise.all([source.before(file), source.after(file.path)]).then(
      ([before, after]) => live && setLoaded({ status: "ready", before, after }),
      (error: unknown) => live && setLoaded({ status: "error", message: errorMessage(error) }),
    );
    return () => {
      live = false;
    };
  }, [file, source, version]);

  const revert = async () => {
    const ok = (await confirm?.(`Revert ${file.path} to how it was before this session changed it?`)) ?? true;
    if (!ok) return;
    try {
      await source.revert(file);
      setVersion((v) => v + 1);
      onReverted?.();
    } catch (error) {
      onProblem?.(`Could not revert ${file.path}: ${errorMessage(error)}.`);
    }
  };

  return (
    <section className="changes-file-view" aria-label={`Changes to ${file.path}`}>
      <header className="changes-file-header">
        <span className="changes-file-path">{file.path}</span>
        {onOpenFile && (
          <button type="button" className="button" onClick={() => onOpenFile(file.path)}>
            Open file
          </button>
        )}
        <button type="button" className="button" onClick={() => void revert()} disabled={loaded.status !== "ready" || sameContent(loaded.before, loaded.after)}>
          Revert file
        </button>
      </header>
      {loaded.status === "loading" && <p className="changes-note">Loading…</p>}
      {loaded.status === "error" && (
        <p className="changes-note" role="alert">
          {loaded.message}
        </p>
      )}
      {loaded.status === "ready" && <DiffBody path={file.path} before={loaded.before} after={loaded.after} renderDiff={renderDiff} />}
    </section>
  );
}

function sameContent(before: FileContent, after: FileContent): boolean {
  return typeof before !== "object" || before === null ? before === after : false;
}

function DiffBody({ path, before, after, renderDiff }: { path: string; before: FileContent; after: FileContent; renderDiff?: DiffRenderer }) {
  if ((before !== null && typeof before === "object") || (after !== null && typeof after === "object")) {
    return <p className="changes-note">{path} is a binary file; its diff is not shown.</p>;
  }
  const original = before ?? "";
  const modified = after ?? "";
  const note = before === null ? "New file." : after === null ? "Deleted." : original === modified ? "Back to how it was before the session." : undefined;
  if (renderDiff) {
    return (
      <>
        {note && <p className="changes-note">{note}</p>}
        <div className="changes-diff">{renderDiff({ path, original, modified })}</div>
      </>
    );
  }
  const diff = coarseLineDiff(original, modified);
  return (
    <>
      {note && <p className="changes-note">{note}</p>}
      {diff.lines.length > 0 && <DiffBlock diff={diff.lines.join("\n")} />}
    </>
  );
}
