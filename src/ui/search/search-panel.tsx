// The Search side view (Ctrl/Cmd+Shift+F): find text across the workspace's files, literal or
// regular expression, with match case, whole word and include/exclude globs; results grouped by
// file open the file at the match; replace one or all writes through the workspace file service,
// so the editor, the tree and the agent see the change.
import { useCallback, useEffect, useId, useMemo, useRef, useState } from "react";
import { errorMessage } from "../../base";
import type { WorkspaceFiles } from "../../runtime";
import type { Dialogs, Notifications } from "../common";
import type { EditorDocuments } from "../editor";
import { MAX_SEARCH_MATCHES, SearchQueryError, replaceInText, searchFiles, type SearchMatch, type SearchQuery, type SearchResult } from "./workspace-search";
import "./search.css";

export const SEARCH_PANEL_ID = "search";
/** Typing settles this long before a search runs (and file changes before it runs again). */
const SEARCH_DELAY_MS = 150;

export interface SearchPanelProps {
  files: WorkspaceFiles;
  documents: EditorDocuments;
  dialogs: Dialogs;
  notifications: Notifications;
  /** Brings this panel to the front (Ctrl/Cmd+Shift+F). */
  show(): void;
}

export function isSearchShortcut(event: Pick<KeyboardEvent, "key" | "ctrlKey" | "metaKey" | "altKey" | "shiftKey">): boolean {
  return (event.ctrlKey || event.metaKey) && event.shiftKey && !event.altKey && event.key.toLowerCase() === "f";
}

export function SearchPanel({ files, documents, dialogs, notifications, show }: SearchPanelProps) {
  const [query, setQuery] = useState<SearchQuery>({ text: "", regex: false, matchCase: false, wholeWord: false, include: "", exclude: "" });
  const [replacement, setReplacement] = useState("");
  const [result, setResult] = useState<SearchResult | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [revision, setRevision] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const id = useId();

  // Ctrl/Cmd+Shift+F anywhere: show the view and focus the search box.
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!isSearchShortcut(event) || dialogs.store.getState().current) return;
      event.preventDefault();
      event.stopPropagation();
      show();
      requestAnimationFrame(() => {
        input.current?.focus();
        input.current?.select();
      });
    };
    window.addEventListener("keydown", onKeyDown, true);
    return () => window.removeEventListener("keydown", onKeyDown, true);
  }, [dialogs, show]);

  // Search again when files change (the agent, the terminal, a replace).
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const subscription = files.onDidChange(() => {
      clearTimeout(timer);
      timer = setTimeout(() => setRevision((r) => r + 1), SEARCH_DELAY_MS);
    });
    return () => {
      clearTimeout(timer);
      subscription.dispose();
    };
  }, [files]);

  useEffect(() => {
    const timer = setTimeout(() => {
      try {
        setResult(query.text === "" ? undefined : searchFiles(files.entries(), query));
        setError(undefined);
      } catch (e) {
        setResult(undefined);
        setError(e instanceof SearchQueryError ? e.message : `The search failed: ${errorMessage(e)}`);
      }
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [files, query, revision]);

  const update = (patch: Partial<SearchQuery>) => setQuery((q) => ({ ...q, ...patch }));

  const openMatch = useCallback(
    (path: string, match: SearchMatch) =>
      void documents.open(path, {
        focus: true,
        selection: { line: match.line, column: match.column, endLine: match.endLine, endColumn: match.endColumn },
      }),
    [documents],
  );

  /** Files with unsaved editor changes are not replaced in: the user's edits win, and they are told. */
  const unsaved = (path: string) => documents.tab(path)?.dirty === true;

  const replaceOne = (path: string, match: SearchMatch) => {
    if (unsaved(path)) {
      notifications.notify("warning", `"${path}" has unsaved changes in the editor. Save or discard them, then replace.`);
      return;
    }
    try {
      const current = files.readSync(path);
      if (typeof current !== "string") return;
      const { text, count } = replaceInText(current, query, replacement, match.offset);
      if (count === 0) {
        notifications.notify("warning", `The match in "${path}" changed before it could be replaced; the results are updated.`);
        setRevision((r) => r + 1);
        return;
      }
      files.writeSync(path, text, { source: "user" });
    } catch (e) {
      notifications.error(e, `Could not replace in "${path}"`);
    }
  };

  const replaceAll = async () => {
    if (!result || result.matchCount === 0) return;
    const answer = await dialogs.ask({
      kind: "choice",
      title: "Replace all?",
      message: `Replace ${plural(result.matchCount, "match", "matches")} in ${plural(result.files.length, "file", "files")} with "${replacement}"?`,
      buttons: [
        { id: "cancel", label: "Cancel" },
        { id: "replace", label: "Replace all", primary: true },
      ],
      cancelId: "cancel",
    });
    if (answer !== "replace") return;
    let replaced = 0;
    let changedFiles = 0;
    const skipped: string[] = [];
    for (const file of result.files) {
      if (unsaved(file.path)) {
        skipped.push(file.path);
        continue;
      }
      try {
        const current = files.readSync(file.path);
        if (typeof current !== "string") continue;
        const { text, count } = replaceInText(current, query, replacement);
        if (count === 0) continue;
        files.writeSync(file.path, text, { source: "user" });
        replaced += count;
        changedFiles++;
      } catch (e) {
        notifications.error(e, `Could not replace in "${file.path}"`);
      }
    }
    const summary = `Replaced ${plural(replaced, "match", "matches")} in ${plural(changedFiles, "file", "files")}.`;
    notifications.notify(
      skipped.length ? "warning" : "info",
      skipped.length ? `${summary} Skipped ${skipped.length} with unsaved editor changes: ${skipped.join(", ")}.` : summary,
    );
  };

  const summary = useMemo(() => {
    if (!result) return undefined;
    if (result.matchCount === 0) return "No results.";
    const text = `${plural(result.matchCount, "result", "results")} in ${plural(result.files.length, "file", "files")}`;
    return result.truncated ? `${text} (the first ${MAX_SEARCH_MATCHES.toLocaleString("en")}; refine the search to see the rest)` : text;
  }, [result]);

  return (
    <section className="search-panel" aria-label="Search">
      <div className="search-form">
        <div className="search-row">
          <input
            ref={input}
            className="text-input"
            aria-label="Search"
            placeholder="Search"
            value={query.text}
            spellCheck={false}
            autoComplete="off"
            aria-invalid={error !== undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            onChange={(e) => update({ text: e.target.value })}
          />
          <Toggle label="Match case" text="Aa" on={query.matchCase === true} onChange={(on) => update({ matchCase: on })} />
          <Toggle label="Match whole word" text="ab" underline on={query.wholeWord === true} onChange={(on) => update({ wholeWord: on })} />
          <Toggle label="Use regular expression" text=".*" on={query.regex === true} onChange={(on) => update({ regex: on })} />
        </div>
        <div className="search-row">
          <input
            className="text-input"
            aria-label="Replace"
            placeholder="Replace"
            value={replacement}
            spellCheck={false}
            autoComplete="off"
            onChange={(e) => setReplacement(e.target.value)}
          />
          <button
            type="button"
            className="button"
            disabled={files.readOnly || !result || result.matchCount === 0}
            onClick={() => void replaceAll()}
          >
            Replace all
          </button>
        </div>
        <input
          className="text-input"
          aria-label="Files to include"
          placeholder="Files to include (e.g. src, *.ts)"
          value={query.include}
          spellCheck={false}
          onChange={(e) => update({ include: e.target.value })}
        />
        <input
          className="text-input"
          aria-label="Files to exclude"
          placeholder="Files to exclude (e.g. dist, *.min.js)"
          value={query.exclude}
          spellCheck={false}
          onChange={(e) => update({ exclude: e.target.value })}
        />
      </div>
      {error && (
        <p id={`${id}-error`} className="search-error" role="alert">
          {error}
        </p>
      )}
      {summary && (
        <p className="search-summary" role="status">
          {summary}
        </p>
      )}
      {result && result.files.length > 0 && (
        <ul className="search-results" aria-label="Search results">
          {result.files.map((file) => (
            <li key={file.path} className="search-file">
              <div className="search-file-name" title={file.path}>
                <span>{file.path}</span>
                <span className="search-count" aria-label={plural(file.matches.length, "match", "matches")}>
                  {file.matches.length}
                </span>
              </div>
              <ul aria-label={`Matches in ${file.path}`}>
                {file.matches.map((match) => (
                  <li key={match.offset} className="search-match">
                    <button
                      type="button"
                      className="search-match-open"
                      onClick={() => openMatch(file.path, match)}
                    >
                      {/* The name is what is shown, with the file and line said first (not a separate label). */}
                      <span className="visually-hidden">{`${file.path} line ${match.line}: `}</span>
                      <span className="search-line-number" aria-hidden="true">
                        {match.line}
                      </span>
                      <span className="search-preview">
                        {match.preview.before}
                        <mark>{match.preview.match}</mark>
                        {match.preview.after}
                      </span>
                    </button>
                    {!files.readOnly && (
                      <button
                        type="button"
                        className="search-replace-one"
                        aria-label={`Replace match on line ${match.line} of ${file.path}`}
                        title="Replace"
                        onClick={() => replaceOne(file.path, match)}
                      >
                        Replace
                      </button>
                    )}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * A search option as a glyph button, like VS Code's. The glyph is drawn by CSS (data-glyph), not
 * written as text: "ab" or "Aa" as content would read as a visible name that differs from what the
 * button does (axe: label-content-name-mismatch); the label says what it does.
 */
function Toggle({ label, text, on, onChange, underline }: { label: string; text: string; on: boolean; onChange(on: boolean): void; underline?: boolean }) {
  return (
    <button
      type="button"
      className={`search-toggle ${underline ? "is-underlined" : ""}`}
      data-glyph={text}
      aria-label={label}
      title={label}
      aria-pressed={on}
      onClick={() => onChange(!on)}
    />
  );
}

function plural(n: number, one: string, many: string): string {
  return `${n.toLocaleString("en")} ${n === 1 ? one : many}`;
}
