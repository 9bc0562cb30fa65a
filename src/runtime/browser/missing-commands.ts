// Commands people type that the browser runtime cannot run (node, npm, ...): they answer with exit
// code 127 and a message saying what is missing and why, instead of "command not found".
import { defineCommand, type CustomCommand, type IFileSystem } from "just-bash";

/** Need Node.js, which only the WebContainer runtime has (node, npm and npx run in both: src/runtime/node, src/runtime/npm). */
export const WEBCONTAINER_COMMANDS = ["pnpm", "yarn", "corepack", "tsc", "tsx"];

/** Commands a pure-JavaScript npm package provides: the browser runtime's node runs them once installed. */
const FROM_PACKAGE: Record<string, string> = { tsc: "typescript" };

/** Not available in either runtime of this page. */
export const UNAVAILABLE_COMMANDS: Record<string, string> = {
  python: "Python is not available in this page (neither the browser runtime nor WebContainer runs it).",
  python3: "Python is not available in this page (neither the browser runtime nor WebContainer runs it).",
  pip: "pip needs python3, which is not available in this page.",
  pip3: "pip needs python3, which is not available in this page.",
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

/**
 * `reasonText` may change while the page runs (WebContainer starting, then unavailable): read per
 * call. `also` names commands this runtime was built without (node when it has no program host).
 */
export function missingCommands(reasonText?: string | (() => string), also: readonly string[] = []): CustomCommand[] {
  const reason = () => (typeof reasonText === "function" ? reasonText() : reasonText);
  return [...missingCommandNames(), ...also].map((name) =>
    defineCommand(name, async (_args, ctx) => {
      // A package installed with npm (typescript's tsc, tsx…) runs through npx or an npm script.
      const installed = WEBCONTAINER_COMMANDS.includes(name) ? await installedBin(ctx.fs, ctx.cwd, name) : undefined;
      if (installed) {
        return { stdout: "", stderr: `${name} is installed in this project (${installed}) but not on PATH: run it with npx ${name} or from an npm script.\n`, exitCode: 127 };
      }
      const pkg = FROM_PACKAGE[name];
      if (pkg && !also.includes("node")) {
        return { stdout: "", stderr: `${name} is not installed in this project: install it with npm install -D ${pkg}, then run npx ${name} or an npm script.\n`, exitCode: 127 };
      }
      return { stdout: "", stderr: `${missingCommandMessage(name, reason())}\n`, exitCode: 127 };
    }),
  );
}

/** node_modules/.bin/NAME in the working folder or a folder above it, inside the workspace. */
async function installedBin(fs: IFileSystem, cwd: string, name: string): Promise<string | undefined> {
  let dir = cwd;
  while (dir === "/workspace" || dir.startsWith("/workspace/")) {
    const candidate = `${dir}/node_modules/.bin/${name}`;
    if (await fs.exists(candidate).catch(() => false)) return candidate;
    dir = dir.slice(0, dir.lastIndexOf("/"));
  }
  return undefined;
}

export function missingCommandNames(): string[] {
  return [...WEBCONTAINER_COMMANDS, ...Object.keys(UNAVAILABLE_COMMANDS), ...Object.keys(BROWSER_EXCLUDED_COMMANDS)];
}
