// Commands people type that the browser runtime cannot run (node, npm, ...): they answer with exit
// code 127 and a message saying what is missing and why, instead of "command not found".
import { defineCommand, type CustomCommand } from "just-bash";

/** Need Node.js, which only the WebContainer runtime has (node itself runs in both: src/runtime/node). */
export const WEBCONTAINER_COMMANDS = ["npm", "npx", "pnpm", "yarn", "corepack", "tsc", "tsx", "vite"];

/** Not available in either runtime of this page. */
export const UNAVAILABLE_COMMANDS: Record<string, string> = {
  python: "Python is not available in this page (neither the browser runtime nor WebContainer runs it).",
  python3: "Python is not available in this page (neither the browser runtime nor WebContainer runs it).",
  pip: "pip is not available yet: python3 in the browser runtime has the standard library only. Copy a pure-Python package's files into the workspace to import it.",
  pip3: "pip is not available yet: python3 in the browser runtime has the standard library only. Copy a pure-Python package's files into the workspace to import it.",
};

/**
 * just-bash commands its browser build leaves out (it answers them with a note to its embedders);
 * defined here so both builds say the same, in words for the user.
 */
export const BROWSER_EXCLUDED_COMMANDS: Record<string, string> = {
  tar: "tar is not available in the browser runtime. Use zip and unzip for archives (gzip and gunzip for single files).",
  sqlite3: "sqlite3 is not available in the browser runtime.",
  yq: "yq is not available in the browser runtime. jq handles JSON.",
  xan: "xan is not available in the browser runtime. awk, cut, sort and column handle CSV.",
};

export const DEFAULT_FALLBACK_TEXT = "this page fell back to the browser runtime";

export function missingCommandMessage(name: string, reasonText: string = DEFAULT_FALLBACK_TEXT): string {
  const fixed = UNAVAILABLE_COMMANDS[name] ?? BROWSER_EXCLUDED_COMMANDS[name];
  if (fixed) return fixed;
  return `${name} is not available in the browser runtime. It needs the WebContainer runtime (Node.js running in the page); ${reasonText}.`;
}

/** `reasonText` may change while the page runs (WebContainer starting, then unavailable): read per call. */
export function missingCommands(reasonText?: string | (() => string)): CustomCommand[] {
  const reason = () => (typeof reasonText === "function" ? reasonText() : reasonText);
  return missingCommandNames().map((name) =>
    defineCommand(name, async () => ({ stdout: "", stderr: `${missingCommandMessage(name, reason())}\n`, exitCode: 127 })),
  );
}

export function missingCommandNames(): string[] {
  return [...WEBCONTAINER_COMMANDS, ...Object.keys(UNAVAILABLE_COMMANDS), ...Object.keys(BROWSER_EXCLUDED_COMMANDS)];
}
