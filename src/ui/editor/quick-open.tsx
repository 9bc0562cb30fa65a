// Quick open (Ctrl/Cmd+P): a modal with a filterable list of workspace files, driven by the
// keyboard (type to filter, Up/Down to choose, Enter to open, Escape to close).
import { useEffect, useId, useMemo, useRef, useState, type ReactNode } from "react";
import { basename, dirname, errorMessage } from "../../base";
import type { WorkspaceFs } from "../../runtime";
import { filterPaths, type QuickOpenMatch } from "./quick-open-filter";

export interface QuickOpenProps {
  files: WorkspaceFs;
  onOpen(path: string): void;
  onClose(): void;
}

function highlight(text: string, offset: number, positions: Set<number>): ReactNode[] {
  return Array.from(text, (ch, i) => (positions.has(i + offset) ? <mark key={i}>{ch}</mark> : ch));
}

export function QuickOpen({ files, onOpen, onClose }: QuickOpenProps) {
  const [paths, setPaths] = useState<string[] | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [query, setQuery] = useState("");
  const [selected, setSelected] = useState(0);
  const listId = useId();
  const labelId = useId();
  const input = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLUListElement>(null);

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    input.current?.focus();
    let live = true;
    files.listAll().then(
      (all) => live && setPaths(all.filter((s) => s.kind === "file").map((s) => s.path).sort()),
      (e: unknown) => live && setError(`Could not list the workspace files: ${errorMessage(e)}`),
    );
    return () => {
      live = false;
      previous?.focus?.();
    };
  }, [files]);

  const matches: QuickOpenMatch[] = useMemo(() => (paths ? filterPaths(paths, query) : []), [paths, query]);
  const current = Math.min(selected, Math.max(0, matches.length - 1));

  useEffect(() => {
    list.current?.querySelector("[aria-selected='true']")?.scrollIntoView({ block: "nearest" });
  }, [current, matches]);

  const choose = (match: QuickOpenMatch | undefined) => {
    if (!match) return;
    onOpen(match.path);
  };

  return (
    <div className="modal-backdrop quick-open-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className="modal quick-open" role="dialog" aria-modal="true" aria-labelledby={labelId}>
        <label id={labelId} className="visually-hidden" htmlFor={`${listId}-input`}>
          Go to file
        </label>
        <input
          id={`${listId}-input`}
          ref={input}
          className="text-input"
          role="combobox"
          aria-expanded="true"
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={matches[current] ? `${listId}-${current}` : undefined}
          placeholder="Type a file name to open it"
          value={query}
          spellCheck={false}
          autoComplete="off"
          onChange={(event) => {
            setQuery(event.target.value);
            setSelected(0);
          }}
          onKeyDown={(event) => {
            if (event.key === "ArrowDown") setSelected((current + 1) % Math.max(1, matches.length));
            else if (event.key === "ArrowUp") setSelected((current - 1 + matches.length) % Math.max(1, matches.length));
            else if (event.key === "PageDown") setSelected(Math.min(matches.length - 1, current + 10));
            else if (event.key === "PageUp") setSelected(Math.max(0, current - 10));
            else if (event.key === "Enter") choose(matches[current]);
            else if (event.key === "Escape") onClose();
            else return;
            event.preventDefault();
            event.stopPropagation();
          }}
        />
        <ul id={listId} ref={list} className="quick-open-list" role="listbox" aria-label="Matching files">
          {matches.map((match, index) => {
            const name = basename(match.path);
            const folder = dirname(match.path);
            const positions = new Set(match.positions);
            return (
              <li
                key={match.path}
                id={`${listId}-${index}`}
                role="option"
                aria-selected={index === current}
                className={index === current ? "is-selected" : ""}
                onMouseMove={() => setSelected(index)}
                onClick={() => choose(match)}
              >
                <span className="quick-open-name">{highlight(name, match.path.length - name.length, positions)}</span>
                {folder && <span className="quick-open-folder">{highlight(folder, 0, positions)}</span>}
              </li>
            );
          })}
        </ul>
        {error && (
          <p className="quick-open-empty" role="alert">
            {error}
          </p>
        )}
        {!error && paths && matches.length === 0 && (
          <p className="quick-open-empty" role="status">
            {paths.length === 0 ? "The workspace has no files yet." : `No file matches "${query}".`}
          </p>
        )}
      </div>
    </div>
  );
}
