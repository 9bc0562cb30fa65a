// Workspace paths: "/"-separated, relative to the workspace root, no leading slash ("src/a.ts").
// Every path from outside (user, model, zip) goes through normalizePath before it is used.

export class PathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PathError";
  }
}

const INVALID_CHARS = /[\u0000-\u001f<>:"|?*\\]/;
/**
 * Bidi controls (U+202A–202E, U+2066–2069), zero-width and direction marks (U+200B–200F) and the
 * BOM (U+FEFF): invisible, yet they reorder or hide text, so a name or command can look like another.
 */
const INVISIBLE_CHARS = /[\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/;
const INVISIBLE_CHARS_GLOBAL = new RegExp(INVISIBLE_CHARS.source, "g");

/** Does the text hold a bidi control or invisible character (see INVISIBLE_CHARS)? */
export function hasInvisibleChars(text: string): boolean {
  return INVISIBLE_CHARS.test(text);
}

/** Shows each bidi control or invisible character as "⟨U+202E⟩", so text reads as it really is. */
export function revealInvisibleChars(text: string): string {
  return text.replace(INVISIBLE_CHARS_GLOBAL, (c) => `⟨U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}⟩`);
}

const RESERVED = new Set([".", ".."]);

/**
 * Normalises a workspace path: accepts "a/b", "/a/b", "./a//b/"; refuses anything that would leave
 * the workspace ("../x") or contains characters that no file system accepts. Returns "" for the root.
 */
export function normalizePath(input: string): string {
  if (typeof input !== "string") throw new PathError("A path must be a string.");
  const parts: string[] = [];
  for (const part of input.replace(/\\/g, "/").split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (parts.length === 0) throw new PathError(`"${input}" points outside the workspace.`);
      parts.pop();
      continue;
    }
    parts.push(part);
  }
  return parts.join("/");
}

/** Validates one file or folder name as typed by a user; returns an error message or undefined. */
export function validateName(name: string): string | undefined {
  // Before the space checks: trim() also strips U+FEFF, which would hide the real reason.
  if (INVISIBLE_CHARS.test(name)) return `"${revealInvisibleChars(name)}" contains an invisible or text-direction character, which can disguise a name. Remove it.`;
  if (name.trim() === "") return "A name cannot be empty.";
  if (name !== name.trim()) return "A name cannot start or end with spaces.";
  if (RESERVED.has(name)) return `"${name}" is not a valid name.`;
  if (name.includes("/")) return "A name cannot contain \"/\".";
  if (INVALID_CHARS.test(name)) return `"${name}" contains a character that is not allowed (< > : " | ? * \\ or control characters).`;
  if (name.length > 255) return "A name can be at most 255 characters long.";
  return undefined;
}

/** Validates every segment of a workspace path; throws PathError with a message for the user. */
export function validatePath(input: string): string {
  const path = normalizePath(input);
  if (path === "") throw new PathError("The workspace root cannot be used here.");
  for (const segment of path.split("/")) {
    const problem = validateName(segment);
    if (problem) throw new PathError(problem);
  }
  return path;
}

export function dirname(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? "" : path.slice(0, i);
}

export function basename(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

export function extname(path: string): string {
  const base = basename(path);
  const i = base.lastIndexOf(".");
  return i <= 0 ? "" : base.slice(i);
}

export function joinPath(...parts: string[]): string {
  return normalizePath(parts.filter((p) => p !== "").join("/"));
}

/** Is `path` equal to `folder` or inside it? ("" is the root, containing everything.) */
export function isInside(path: string, folder: string): boolean {
  return folder === "" || path === folder || path.startsWith(folder + "/");
}
