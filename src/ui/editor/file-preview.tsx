// Previews in the editor area: Markdown rendered with the chat's sanitiser (beside the source, live as
// you type), images shown as images (SVG included, always through <img>, so its markup and scripts
// never become part of the page), and, for other binary files, their size and type.
import { useEffect, useState } from "react";
import { basename, errorMessage, formatBytes } from "../../base";
import type { WorkspaceFs } from "../../runtime";
import { Markdown } from "../markdown";
import type { TextBuffer } from "./text-buffer";

const IMAGE_TYPES: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  svg: "image/svg+xml",
  avif: "image/avif",
  bmp: "image/bmp",
  ico: "image/x-icon",
};

/** Types named for binary files that are not previewed (what the user sees; not used to parse anything). */
const OTHER_TYPES: Record<string, string> = {
  pdf: "application/pdf",
  zip: "application/zip",
  gz: "application/gzip",
  tar: "application/x-tar",
  wasm: "application/wasm",
  woff: "font/woff",
  woff2: "font/woff2",
  ttf: "font/ttf",
  otf: "font/otf",
  mp3: "audio/mpeg",
  wav: "audio/wav",
  mp4: "video/mp4",
  webm: "video/webm",
  exe: "application/x-msdownload",
  jar: "application/java-archive",
  sqlite: "application/vnd.sqlite3",
  db: "application/octet-stream",
};

function extension(path: string): string {
  const name = basename(path);
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : "";
}

export type PreviewKind = "markdown" | "image";

/** What preview a file has, by its name: Markdown, an image, or none. */
export function previewKind(path: string): PreviewKind | undefined {
  const ext = extension(path);
  if (ext === "md" || ext === "markdown") return "markdown";
  if (ext in IMAGE_TYPES) return "image";
  return undefined;
}

/** The file's type as shown to the user: a MIME type when the extension is known. */
export function describeFileType(path: string): string {
  const ext = extension(path);
  const mime = IMAGE_TYPES[ext] ?? OTHER_TYPES[ext];
  if (mime) return mime;
  return ext ? `.${ext} file (unknown type)` : "unknown type";
}

/** An open tab's text, following its edits (settled) so a preview shows unsaved changes too. */
export function useBufferText(buffer: TextBuffer | undefined): string {
  const [text, setText] = useState(() => buffer?.getValue() ?? "");
  useEffect(() => {
    if (!buffer) return;
    setText(buffer.getValue());
    let timer: ReturnType<typeof setTimeout> | undefined;
    const subscription = buffer.onDidChangeContent(() => {
      clearTimeout(timer);
      timer = setTimeout(() => setText(buffer.getValue()), 100);
    });
    return () => {
      clearTimeout(timer);
      subscription.dispose();
    };
  }, [buffer]);
  return text;
}

/** Markdown of an open tab, re-rendered as its text changes (unsaved edits included). */
export function MarkdownPreview({ buffer, path }: { buffer: TextBuffer | undefined; path: string }) {
  const text = useBufferText(buffer);
  return (
    <div className="file-preview file-preview-markdown" role="document" aria-label={`Preview of ${basename(path)}`}>
      <Markdown text={text} />
    </div>
  );
}

/** An SVG open as text, shown as an image as it is edited. */
export function SvgPreview({ files, buffer, path }: { files: WorkspaceFs; buffer: TextBuffer | undefined; path: string }) {
  const text = useBufferText(buffer);
  return <ImagePreview files={files} path={path} text={text} />;
}

/**
 * An image file as an image. The bytes go into a blob: URL shown by <img>: an SVG's scripts and
 * external references do not run or load there, and nothing is parsed into the page.
 */
export function ImagePreview({ files, path, text }: { files: WorkspaceFs; path: string; text?: string }) {
  const [state, setState] = useState<{ url: string; size: number } | { error: string } | undefined>(undefined);
  const [dimensions, setDimensions] = useState<{ width: number; height: number } | undefined>(undefined);
  const [revision, setRevision] = useState(0);
  useEffect(() => {
    const subscription = files.onDidChange((changes) => changes.some((c) => c.path === path) && setRevision((r) => r + 1));
    return () => subscription.dispose();
  }, [files, path]);
  useEffect(() => {
    let url: string | undefined;
    let live = true;
    const type = IMAGE_TYPES[extension(path)] ?? "application/octet-stream";
    const bytes: Promise<BlobPart> = text !== undefined ? Promise.resolve(text) : files.readFile(path).then((b) => b.slice().buffer);
    bytes.then(
      (part) => {
        if (!live) return;
        const blob = new Blob([part], { type });
        url = URL.createObjectURL(blob);
        setState({ url, size: blob.size });
      },
      (error: unknown) => live && setState({ error: `Could not read ${path}: ${errorMessage(error)}` }),
    );
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [files, path, text, revision]);
  const name = basename(path);
  if (!state) return <div className="editor-message" role="status">Opening {name}…</div>;
  if ("error" in state) {
    return (
      <div className="editor-message" role="alert">
        {state.error}
      </div>
    );
  }
  return (
    <div className="file-preview file-preview-image">
      <img
        src={state.url}
        alt={`Preview of ${name}`}
        onLoad={(e) => setDimensions({ width: e.currentTarget.naturalWidth, height: e.currentTarget.naturalHeight })}
        onError={() => setState({ error: `${name} could not be shown as an image (${describeFileType(path)}); the file may be damaged.` })}
      />
      <p className="file-preview-caption">
        {name} · {describeFileType(path)} · {formatBytes(state.size)}
        {dimensions ? ` · ${dimensions.width} × ${dimensions.height} px` : ""}
      </p>
    </div>
  );
}
