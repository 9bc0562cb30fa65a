// Drag and drop onto the file tree: while files are dragged over the page, an overlay covers the
// tree region ("Files") and takes the drop — a .zip, a folder, loose files, or a .webcode share.
import { useEffect, useRef, useState, type DragEvent } from "react";
import type { DroppedEntryLike, FileLike } from "../../transfer";

export type DroppedImport =
  | { kind: "zip"; file: File }
  | { kind: "share-file"; file: File }
  | { kind: "entries"; entries: DroppedEntryLike[] }
  | { kind: "files"; files: File[] };

/** The part of DataTransfer read on drop. */
export interface DropDataLike {
  items?: ArrayLike<{ kind: string; webkitGetAsEntry?(): unknown; getAsFile(): File | null }>;
  files: ArrayLike<File>;
}

const isZip = (file: FileLike) => /\.zip$/i.test(file.name);
const isShare = (file: FileLike) => /\.webcode$/i.test(file.name);

/**
 * Sorts a drop into what to import. Must run inside the drop handler: the entries (and files) of a
 * DataTransfer are only readable there; the entry objects it returns stay usable afterwards.
 */
export function classifyDrop(data: DropDataLike): DroppedImport | undefined {
  const files = Array.from(data.files);
  const items = Array.from(data.items ?? []).filter((item) => item.kind === "file");
  const entries = items.map((item) => (item.webkitGetAsEntry?.() ?? null) as DroppedEntryLike | null);
  const allEntries = entries.length > 0 && entries.every((e) => e !== null);
  const single = files.length === 1 ? files[0]! : undefined;
  if (single && (!allEntries || entries[0]!.isFile)) {
    if (isZip(single)) return { kind: "zip", file: single };
    if (isShare(single)) return { kind: "share-file", file: single };
  }
  if (allEntries) return { kind: "entries", entries: entries as DroppedEntryLike[] };
  if (files.length > 0) return { kind: "files", files };
  return undefined;
}

const hasFiles = (event: { dataTransfer: DataTransfer | null }) => Array.from(event.dataTransfer?.types ?? []).includes("Files");

/** How long after the last dragover the overlay goes away (dragleave is unreliable across frames). */
const HIDE_AFTER_MS = 300;

export interface DropZoneProps {
  onDrop(drop: DroppedImport): void;
  /** Finds the region to cover (the file tree's pane). */
  findTarget?(): Element | null;
}

const defaultTarget = () => document.querySelector('[role="tree"][aria-label="Files"]')?.closest(".pane-tree") ?? document.querySelector('[role="tree"][aria-label="Files"]');

export function DropZone({ onDrop, findTarget = defaultTarget }: DropZoneProps) {
  const [rect, setRect] = useState<DOMRect | undefined>(undefined);
  const [over, setOver] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    const hide = () => {
      clearTimeout(timer.current);
      setRect(undefined);
      setOver(false);
    };
    const onDragOver = (event: globalThis.DragEvent) => {
      if (!hasFiles(event)) return;
      const target = findTarget();
      if (!target) return;
      const box = target.getBoundingClientRect();
      setRect((old) => (old && old.x === box.x && old.y === box.y && old.width === box.width && old.height === box.height ? old : box));
      clearTimeout(timer.current);
      timer.current = setTimeout(hide, HIDE_AFTER_MS);
    };
    document.addEventListener("dragenter", onDragOver);
    document.addEventListener("dragover", onDragOver);
    document.addEventListener("drop", hide);
    document.addEventListener("dragend", hide);
    return () => {
      hide();
      document.removeEventListener("dragenter", onDragOver);
      document.removeEventListener("dragover", onDragOver);
      document.removeEventListener("drop", hide);
      document.removeEventListener("dragend", hide);
    };
  }, [findTarget]);

  if (!rect) return null;
  const accept = (event: DragEvent) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "copy";
    setOver(true);
  };
  return (
    <div
      className={over ? "transfer-drop-zone is-over" : "transfer-drop-zone"}
      role="region"
      aria-label="Drop to import"
      style={{ left: rect.left, top: rect.top, width: rect.width, height: rect.height }}
      onDragEnter={accept}
      onDragOver={accept}
      onDragLeave={() => setOver(false)}
      onDrop={(event) => {
        event.preventDefault();
        const drop = classifyDrop(event.dataTransfer);
        setRect(undefined);
        setOver(false);
        if (drop) onDrop(drop);
      }}
    >
      <p>Drop a .zip, a folder or a .webcode file to import it</p>
    </div>
  );
}
