// The export dialog: the whole workspace or one of its folders as a zip, downloaded as
// "<workspace>.zip" (or "<workspace>-<folder>.zip"). Unsaved editor changes are saved first.
import { useEffect, useId, useState } from "react";
import { basename, errorMessage, formatBytes } from "../../base";
import { exportWorkspaceZip, type ImportProgress } from "../../transfer";
import type { WorkspaceFs } from "../../runtime";
import { downloadBytes, safeFileName } from "./download";
import { Modal } from "./modal";

export interface ExportDialogProps {
  workspaceName: string;
  files: WorkspaceFs;
  /** Unsaved editor tabs, and saving them (the export reads the saved files). */
  unsavedCount(): number;
  saveAll(): Promise<boolean>;
  onClose(): void;
  /** Where the zip goes (a download in the page; tests capture it). */
  save?(bytes: Uint8Array, fileName: string): void;
  onExported?(message: string): void;
}

export function exportFileName(workspaceName: string, folder: string): string {
  return safeFileName(folder === "" ? workspaceName : `${workspaceName}-${basename(folder)}`, ".zip");
}

export function ExportDialog({ workspaceName, files, unsavedCount, saveAll, onClose, save, onExported }: ExportDialogProps) {
  const folderId = useId();
  const [folders, setFolders] = useState<string[] | undefined>(undefined);
  const [folder, setFolder] = useState("");
  const [progress, setProgress] = useState<ImportProgress | undefined>(undefined);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const unsaved = unsavedCount();

  useEffect(() => {
    let live = true;
    void files.listAll().then((all) => {
      if (live) setFolders(all.filter((s) => s.kind === "dir").map((s) => s.path).sort());
    });
    return () => {
      live = false;
    };
  }, [files]);

  const run = async () => {
    setProblem(undefined);
    setProgress({ files: 0, totalFiles: 0, bytes: 0, totalBytes: 0 });
    try {
      if (unsaved > 0 && !(await saveAll())) throw new Error("some unsaved files could not be saved; save or close them and try again");
      const bytes = await exportWorkspaceZip(files, { folder, rootName: folder === "" ? workspaceName : basename(folder), onProgress: setProgress });
      const fileName = exportFileName(workspaceName, folder);
      (save ?? ((data, name) => downloadBytes(data, name, "application/zip")))(bytes, fileName);
      onExported?.(`Exported ${folder === "" ? `"${workspaceName}"` : `the folder "${folder}"`} as ${fileName} (${formatBytes(bytes.length)}).`);
      onClose();
    } catch (error) {
      setProgress(undefined);
      setProblem(`The export failed: ${errorMessage(error)}.`);
    }
  };

  return (
    <Modal label="Export zip" onClose={progress ? undefined : onClose} className="export-dialog">
      <label htmlFor={folderId}>What to export</label>
      <select id={folderId} className="select transfer-select" value={folder} disabled={!folders || !!progress} onChange={(event) => setFolder(event.target.value)}>
        <option value="">Whole workspace</option>
        {folders?.map((path) => (
          <option key={path} value={path}>
            Folder: {path}
          </option>
        ))}
      </select>
      <p className="form-hint">
        Downloads <code>{exportFileName(workspaceName, folder)}</code>. Importing it again gives back the same files.
      </p>
      {unsaved > 0 && (
        <p className="form-hint" role="note">
          {unsaved === 1 ? "1 file has" : `${unsaved} files have`} unsaved changes in the editor; {unsaved === 1 ? "it is" : "they are"} saved before the export.
        </p>
      )}
      {progress && (
        <p className="transfer-progress-text" role="status">
          Zipping{progress.totalFiles > 0 ? ` ${progress.files} of ${progress.totalFiles} files` : "…"}
        </p>
      )}
      {problem && (
        <p className="transfer-error" role="alert">
          {problem}
        </p>
      )}
      <div className="modal-buttons">
        <button type="button" className="button" disabled={!!progress} onClick={onClose}>
          Cancel
        </button>
        <button type="button" className="button button-primary" disabled={!folders || !!progress} onClick={() => void run()}>
          Download zip
        </button>
      </div>
    </Modal>
  );
}
