// Assembles the one system message of a model call (docs/agent.md, "System prompt and environment block"): agent or family prompt, environment
// block, project instructions, connected MCP servers' instructions, then the turn's own system text and reminders.
import type { Runtime } from "../../runtime";
import type { ModelRef } from "../../storage";
import type { AgentInfo } from "../agents";
import { promptFamily } from "./family";
import { formatInstructions, loadConfigInstructions, loadRootInstructions } from "./instructions";
import { FAMILY_PROMPTS } from "./texts";

export interface SystemPromptInput {
  agent: AgentInfo;
  model: ModelRef;
  modelName: string;
  runtime: Runtime;
  date: Date;
  userSystem?: string;
  reminders?: string[];
  /** Sections from connected MCP servers (their instructions, already framed as the server's). */
  serverInstructions?: string[];
}

/** What the browser runtime's node runs (src/runtime/node), and what still needs WebContainer. */
export const BROWSER_NODE_NOTE =
  "node here runs JavaScript and TypeScript programs (.js .mjs .cjs .ts .mts .cts), node -e / -p and node --test in an isolated worker: CommonJS and ES modules, packages in node_modules and Node's built-ins (zlib, vm, crypto hashes…). Installed pure-JavaScript tools run through npx or npm scripts, tsc among them (npm install -D typescript, then npx tsc --noEmit). child_process (spawn, exec, execSync, fork…) runs commands as children; worker_threads' Worker runs threads. An http server (http.createServer().listen(PORT), Express) is reached as localhost:PORT by curl, other programs and the Preview panel, without the network; start it with node server.js & (it runs until the runtime closes; no jobs or kill %N), then curl localhost:PORT. It cannot run raw net sockets, http requests to other hosts or native addons (they fail when called), and programs have no network access: those need WebContainer.";

/** What the runtime can run, in words the model can act on. */
export function describeRuntime(runtime: Pick<Runtime, "kind" | "capabilities">): string {
  const { node, npm, servers } = runtime.capabilities;
  const browser = runtime.kind === "browser";
  const can = [node && "node", npm && (browser ? "npm and npx (pure-JavaScript packages)" : "npm"), servers && "dev servers (their preview URLs open in the preview panel)"].filter(Boolean);
  const cannot = [!node && "node", !npm && "npm", !servers && "dev servers"].filter(Boolean);
  const name =
    runtime.kind === "webcontainer"
      ? "WebContainer (Node.js running in the browser tab)"
      : "browser fallback (simulated bash with file and text commands such as ls, cat, grep, sed, find, wc)";
  const lines = [`Runtime: ${name}`];
  // git is isomorphic-git in the browser runtime (src/runtime/browser/git); WebContainer has none,
  // so after the move a command line starting with git, pip or python3 still runs there
  // (WorkspaceRuntime's BROWSER_ROUTED_COMMANDS).
  if (browser) can.push("git (init, status, add, rm, mv, commit, log, diff, show, branch, switch, checkout, restore, reset, stash, tag; no merge or rebase)");
  if (browser && runtime.capabilities.python) {
    can.push("python3 (CPython 3.14 via Pyodide: FILE, -c, -m unittest/doctest/json.tool, -m pytest once installed; stdin from a pipe, not typed)");
    can.push("pip (install NAME.../-r requirements.txt, uninstall, list, show: pure-Python wheels only, into .venv, from pip.conf's index-url or PyPI; packages with native code cannot install)");
  }
  if (can.length) lines.push(`Can run: ${can.join(", ")}`);
  // No word on the network: curl, npm, pip and git reach sites (a new one asks the user first, the
  // egress gate), and a refusal explains itself in the command's output.
  const unavailable = cannot;
  if (unavailable.length) lines.push(`Not available: ${unavailable.join(", ")}`);
  if (browser && node) lines.push(BROWSER_NODE_NOTE);
  if (browser && npm) lines.push(BROWSER_NPM_NOTE);
  if (browser) lines.push(browserPreviewNote(runtime.capabilities.python === true));
  if (runtime.kind === "webcontainer") {
    lines.push(JSH_NOTE);
    lines.push(ROUTED_NOTE);
    if (servers) lines.push("Dev servers: end the command with \" &\" (npm run dev &): it returns when the server is ready and the server keeps running.");
  }
  return lines.join("\n");
}

/** What dev-server commands do in the browser runtime (src/runtime/preview). */
function browserPreviewNote(python: boolean): string {
  return `Front-end dev servers (vite, serve and the like: typed, in an npm script or with npx${python ? "; python3 -m http.server" : ""}) open the built-in preview (static files, TS/JSX compiled, node_modules imports) in the Preview panel. vite build and rollup run (wasm builds; vite preview serves dist/); next, webpack and esbuild fail here, saying so; the preview needs none.`;
}

/** What the browser runtime's npm does and does not (src/runtime/npm). */
const BROWSER_NPM_NOTE =
  "npm here: install (NAME[@range], -D), ci, uninstall, ls, run, test, start and npx BIN, from the registry in .npmrc (default the npm registry). " +
  "Install scripts are not run; packages with native code (node-gyp, .node files) are installed but named as needing WebContainer and do not run here. " +
  "npm run scripts run in this simulated bash with node_modules/.bin on PATH, so a script works only if its commands do.";

/**
 * WebContainer's shell is jsh, not bash: the commands it has (as StackBlitz's own bolt.new lists
 * them), and what to use for the text tools it lacks. Commands run unattended (runtime/webcontainer).
 */
const JSH_NOTE =
  "Shell: jsh (not bash). Commands: cat, cd, chmod, cp, curl, echo, env, export, head, jq, kill, ln, ls, mkdir, mv, ps, pwd, rm, rmdir, sort, tail, touch, which, xxd, node, npm, npx. " +
  "No grep, sed, find, awk, xargs, wc, diff, cut or tr: use the grep, glob, read and edit tools, or a node script. No native binaries. " +
  "Commands run without input (CI=1): pass flags such as --yes instead of answering prompts.";

/** Where commands run once the workspace is in WebContainer (src/runtime/workspace-runtime.ts). */
const ROUTED_NOTE =
  "git, pip and python3 run in webcode's browser runtime on the same files, as a command line of their own (not in a && b or a pipe); all else runs in WebContainer. " +
  "Its node_modules is its own: npm install there (the browser npm's is not carried over).";

export async function environmentBlock(input: Pick<SystemPromptInput, "model" | "modelName" | "runtime" | "date">): Promise<string> {
  const isGit = await input.runtime.fs.exists(".git").catch(() => false);
  return [
    "<env>",
    `Model: ${input.modelName} (${input.model.providerId}/${input.model.modelId})`,
    "Workspace root: tool paths are relative to it (e.g. src/main.ts)",
    `Git repository: ${isGit ? "yes" : "no"}`,
    describeRuntime(input.runtime),
    `Today's date: ${input.date.toDateString()}`,
    "</env>",
  ].join("\n");
}

export async function buildSystemPrompt(input: SystemPromptInput): Promise<string> {
  const sections: string[] = [];
  sections.push(input.agent.prompt?.trim() || FAMILY_PROMPTS[promptFamily(input.model.modelId)]);
  sections.push(await environmentBlock(input));
  const instructions = await loadRootInstructions(input.runtime.fs).catch(() => undefined);
  if (instructions) sections.push(formatInstructions(instructions));
  const extra = await loadConfigInstructions(input.runtime.fs, new Set(instructions ? [instructions.path] : [])).catch(() => []);
  for (const file of extra) sections.push(formatInstructions(file));
  for (const section of input.serverInstructions ?? []) if (section.trim()) sections.push(section.trim());
  if (input.userSystem?.trim()) sections.push(input.userSystem.trim());
  for (const reminder of input.reminders ?? []) if (reminder.trim()) sections.push(reminder.trim());
  return sections.join("\n\n");
}
