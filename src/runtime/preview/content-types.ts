// Content types of the files the built-in preview serves, by extension, and which of them a page
// may import as a module (scripts compiled on the way out) or as data (JSON, CSS, assets).

const TYPES: Record<string, string> = {
  html: "text/html; charset=utf-8",
  htm: "text/html; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  mjs: "text/javascript; charset=utf-8",
  cjs: "text/javascript; charset=utf-8",
  jsx: "text/javascript; charset=utf-8",
  ts: "text/javascript; charset=utf-8",
  tsx: "text/javascript; charset=utf-8",
  mts: "text/javascript; charset=utf-8",
  cts: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  json: "application/json; charset=utf-8",
  map: "application/json; charset=utf-8",
  webmanifest: "application/manifest+json",
  txt: "text/plain; charset=utf-8",
  md: "text/markdown; charset=utf-8",
  xml: "application/xml",
  svg: "image/svg+xml",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  avif: "image/avif",
  ico: "image/x-icon",
  bmp: "image/bmp",
  woff: "font/woff",
  woff2: "font/woff2",
  ttf: "font/ttf",
  otf: "font/otf",
  eot: "application/vnd.ms-fontobject",
  mp3: "audio/mpeg",
  wav: "audio/wav",
  ogg: "audio/ogg",
  mp4: "video/mp4",
  webm: "video/webm",
  wasm: "application/wasm",
  pdf: "application/pdf",
};

export function extensionOf(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : "";
}

export function contentTypeOf(path: string): string {
  return TYPES[extensionOf(path)] ?? "application/octet-stream";
}

/** Compiled to JavaScript before they are served: TypeScript and JSX. */
export const COMPILED_EXTENSIONS = ["ts", "tsx", "mts", "cts", "jsx"];

/** What a module import of this file gives the importer. */
export type ModuleKind = "script" | "css" | "json" | "asset";

export function moduleKindOf(path: string): ModuleKind {
  const ext = extensionOf(path);
  if (ext === "css") return "css";
  if (ext === "json") return "json";
  if (["js", "mjs", "cjs", ...COMPILED_EXTENSIONS].includes(ext)) return "script";
  return "asset";
}
