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
 * The one definition of the characters that are invisible or change how the text around them reads
 * (issue 9, "Trojan Source"): a name or command holding one can look like another. Used wherever a
 * name from outside is checked or shown (file and folder names, workspace names, session titles,
 * agent names, commands on permission cards):
 * - Unicode format characters (Cf): zero-width and direction marks, the bidi embeddings, overrides
 *   and isolates, the BOM, soft hyphen (U+00AD), U+061C, U+180E, U+2060–2064, tag characters;
 * - line and paragraph separators (Zl, Zp: U+2028, U+2029);
 * - C0 and C1 controls and DEL (Cc).
 * The named ones are also listed by code point, so an engine with older Unicode tables misses none.
 */
const INVISIBLE_CLASS = "\\p{Cf}\\p{Zl}\\p{Zp}\\p{Cc}\\u00ad\\u061c\\u180e\\u200b-\\u200f\\u202a-\\u202e\\u2060-\\u2064\\u2066-\\u2069\\ufeff";
const INVISIBLE_CHARS = new RegExp(`[${INVISIBLE_CLASS}]`, "u");
const INVISIBLE_CHARS_GLOBAL = new RegExp(`[${INVISIBLE_CLASS}]`, "gu");

/** Does the text hold an invisible, control or text-direction character (see INVISIBLE_CLASS)? */
export function hasInvisibleChars(text: string): boolean {
  return INVISIBLE_CHARS.test(text);
}

const codePointLabel = (c: string) => `⟨U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}⟩`;

/** Shows each invisible, control or text-direction character as "⟨U+202E⟩", so a name reads as it really is. */
export function revealInvisibleChars(text: string): string {
  return text.replace(INVISIBLE_CHARS_GLOBAL, codePointLabel);
}

/**
 * revealInvisibleChars for multi-line text (commands, diffs, file contents): line breaks and tabs
 * are layout there, so they stay; everything else is revealed.
 */
export function revealInvisibleInText(text: string): string {
  return text.replace(INVISIBLE_CHARS_GLOBAL, (c) => (c === "\n" || c === "\r" || c === "\t" ? c : codePointLabel(c)));
}

/** The message for a name holding such a character, naming it visibly; undefined when there is none. */
export function invisibleCharsProblem(name: string): string | undefined {
  if (!hasInvisibleChars(name)) return undefined;
  return `"${revealInvisibleChars(name)}" contains an invisible or text-direction character, which can disguise a name. Remove it.`;
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
  const invisible = invisibleCharsProblem(name);
  if (invisible) return invisible;
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
