// The export dialog: the whole workspace or one of its folders as a zip, downloaded as
// "<workspace>.zip" (or "<workspace>-<folder>.zip"). Unsaved editor changes are saved first. Like the
// Share dialog, it looks for possible secrets (file contents, binary ones included, and names) and
// leaves the files holding them out unless the user unticks them.
import { useCallback, useEffect, useId, useMemo, useRef, useState } from "react";
import { basename, errorMessage, formatBytes, isInside } from "../../base";
import { exportWorkspaceZip, scanFilesForSecrets, type ImportProgress, type ScannedFile } from "../../transfer";
import type { WorkspaceFs } from "../../runtime";
import { downloadBytes, safeFileName } from "./download";
import { Modal } from "./modal";
import { SecretFindings, groupFindings, type FindingGroup } from "./secret-findings";

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
  /** The API keys configured in Settings, looked for too (never written anywhere). */
  knownSecrets?(): Promise<readonly string[]>;
}

/** Reads every workspace file (after the editor's unsaved changes are saved) for the secret scan. */
async function readForScan(files: WorkspaceFs): Promise<ScannedFile[]> {
  const out: ScannedFile[] = [];
  for (const stat of await files.listAll()) {
    out.push(stat.kind === "dir" ? { path: stat.path, kind: "dir" } : { path: stat.path, kind: "file", data: await files.readFile(stat.path) });
  }
  return out;
}

export function exportFileName(workspaceName: string, folder: string): string {
  return safeFileName(folder === "" ? workspaceName : `${workspaceName}-${basename(folder)}`, ".zip");
}

export function ExportDialog({ workspaceName, files, unsavedCount, saveAll, onClose, save, onExported, knownSecrets }: ExportDialogProps) {
  const folderId = useId();
  const [folders, setFolders] = useState<string[] | undefined>(undefined);
  const [folder, setFolder] = useState("");
  const [progress, setProgress] = useState<ImportProgress | undefined>(undefined);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const unsaved = unsavedCount();
  /** The stored files' findings (unsaved editor changes are scanned again once saved, in run()). */
  const secretsSource = useRef(knownSecrets);
  secretsSource.current = knownSecrets;
  const scan = useCallback(async () => {
    const [scanned, secrets] = await Promise.all([readForScan(files), secretsSource.current?.().catch(() => []) ?? []]);
    return groupFindings(scanFilesForSecrets(scanned, { knownSecrets: secrets }));
  }, [files]);
  /** Findings for the whole workspace (undefined while scanning). */
  const [allGroups, setAllGroups] = useState<FindingGroup[] | undefined>(undefined);
  const [kept, setKept] = useState<Set<string>>(new Set());

  useEffect(() => {
    let live = true;
    void scan().then(
      (groups) => live && setAllGroups(groups),
      (error: unknown) => live && setProblem(`The files could not be checked for secrets: ${errorMessage(error)}.`),
    );
    return () => {
      live = false;
    };
  }, [scan]);

  /** The findings inside what is exported; every one is left out unless the user unticked it. */
  const groups = useMemo(() => (allGroups ?? []).filter((g) => g.path !== undefined && isInside(g.path, folder) && g.path !== folder), [allGroups, folder]);
  const leftOut = useMemo(() => new Set(groups.filter((g) => !kept.has(g.key)).map((g) => g.key)), [groups, kept]);

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
      if (unsaved > 0) {
        if (!(await saveAll())) throw new Error("some unsaved files could not be saved; save or close them and try again");
        // What was just saved has not been scanned: anything new is shown before anything is zipped.
        const rescanned = await scan();
        const shown = new Set(groups.map((g) => g.key));
        if (rescanned.some((g) => g.path !== undefined && isInside(g.path, folder) && g.path !== folder && !shown.has(g.key))) {
          setAllGroups(rescanned);
          setProgress(undefined);
          setProblem("The files just saved hold possible secrets: check the list above, then press Download zip again.");
          return;
        }
      }
      const excludePaths = groups.filter((g) => leftOut.has(g.key)).map((g) => g.path!);
      const bytes = await exportWorkspaceZip(files, { folder, rootName: folder === "" ? workspaceName : basename(folder), onProgress: setProgress, excludePaths });
      const fileName = exportFileName(workspaceName, folder);
      (save ?? ((data, name) => downloadBytes(data, name, "application/zip")))(bytes, fileName);
      const omitted = excludePaths.length === 0 ? "" : ` ${excludePaths.length === 1 ? "1 file or folder" : `${excludePaths.length} files or folders`} with possible secrets ${excludePaths.length === 1 ? "was" : "were"} left out.`;
      onExported?.(`Exported ${folder === "" ? `"${workspaceName}"` : `the folder "${folder}"`} as ${fileName} (${formatBytes(bytes.length)}).${omitted}`);
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
      {allGroups === undefined && !problem && <p role="status">Looking for possible secrets…</p>}
      <SecretFindings
        groups={groups}
        leftOut={leftOut}
        disabled={!!progress}
        onToggle={(group, leaveOut) => {
          const next = new Set(kept);
          if (leaveOut) next.delete(group.key);
          else next.add(group.key);
          setKept(next);
        }}
      />
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
        <button type="button" className="button button-primary" disabled={!folders || !allGroups || !!progress} onClick={() => void run()}>
          Download zip
        </button>
      </div>
    </Modal>
  );
}
