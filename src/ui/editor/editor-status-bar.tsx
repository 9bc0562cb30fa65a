// The editor's part of the status bar: problems in the active file, cursor position, language.
import { useStore } from "zustand";
import { editorStatus } from "./editor-status";

export function EditorStatusItems() {
  const { line, column, language, errors, warnings } = useStore(editorStatus);
  if (language === undefined) return null;
  return (
    <>
      <span className="status-item" title="Problems in this file">
        {plural(errors, "error")}, {plural(warnings, "warning")}
      </span>
      {line !== undefined && (
        <span className="status-item">
          Ln {line}, Col {column}
        </span>
      )}
      <span className="status-item">{language}</span>
    </>
  );
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}
