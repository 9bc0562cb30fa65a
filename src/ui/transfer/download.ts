// Saves bytes as a file through an object URL and a temporary link (no server involved).

/** Characters file systems refuse in names, and control characters. */
const UNSAFE_FILE_CHARS = /[\\/:*?"<>|\u0000-\u001f\u007f]+/g;

/** A file name made from a workspace or session name: unsafe characters become "-", never empty. */
export function safeFileName(name: string, extension: string, fallback = "workspace"): string {
  const cleaned = name.replace(UNSAFE_FILE_CHARS, "-").replace(/^[.\s-]+|[.\s]+$/g, "").slice(0, 100);
  return `${cleaned || fallback}${extension}`;
}

/** Starts a download of `bytes` named `fileName`. The URL is released once the click is handled. */
export function downloadBytes(bytes: Uint8Array, fileName: string, mime: string, doc: Document = document): void {
  const blob = new Blob([bytes as Uint8Array<ArrayBuffer>], { type: mime });
  const url = URL.createObjectURL(blob);
  const link = doc.createElement("a");
  link.href = url;
  link.download = fileName;
  link.rel = "noopener";
  link.style.display = "none";
  doc.body.appendChild(link);
  link.click();
  link.remove();
  // Revoking at once can cancel the download in some browsers; a minute is plenty to start it.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
