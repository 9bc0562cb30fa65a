// What the bash tool checks while a command line runs (docs/agent.md, "Permissions"). On a runtime
// that shows each command and request as it happens (the browser runtime's gate, see
// src/runtime/egress.ts) the rules judge what actually runs and where bytes actually go; elsewhere
// (WebContainer runs the line in its own shell) the line's text is judged, and a line whose commands
// or destinations cannot be known from its text asks.
import { shellLine } from "../../base";
import { originOf, type EgressRequest, type ExecGate } from "../../runtime";
import type { PermissionRequest } from "../tools/tool";
import { argvPermission, bashPermission } from "./bash-permission";

/** The permission of a request to an origin not allowed yet (pattern: the origin). */
export const NETWORK_PERMISSION = "network";

export interface CommandGateInput {
  /** The command line the agent sent (shown on each card: which call the command comes from). */
  line: string;
  description: string;
  ask(request: PermissionRequest): Promise<void>;
  /** Called at the first refusal: the rest of the line must not run (the tool stops the run). */
  onRefused?(error: unknown): void;
}

export interface CommandGate {
  gate: ExecGate;
  /** The first refusal (a reject or a deny) while the line ran; the tool reports it after the run. */
  refusal(): unknown;
}

/**
 * The gate for one run of the bash tool. An answer holds for the rest of that run: a command or
 * origin allowed once is not asked about again within it (a loop calling curl asks once).
 */
export function commandGate(input: CommandGateInput): CommandGate {
  const allowedPatterns = new Set<string>();
  const allowedOrigins = new Set<string>();
  let refusal: unknown;
  const asking = async (request: PermissionRequest) => {
    try {
      await input.ask(request);
    } catch (error) {
      if (refusal === undefined) {
        refusal = error;
        input.onRefused?.(error);
      }
      throw error;
    }
  };
  const gate: ExecGate = {
    async command(argv) {
      const { patterns, always } = argvPermission(argv);
      const open = patterns.filter((pattern) => !allowedPatterns.has(pattern));
      if (open.length === 0) return;
      await asking({
        permission: "bash",
        patterns: open,
        always,
        metadata: { command: shellLine(argv), from: input.line, description: input.description, detail: fromNote(input.line, shellLine(argv)) },
      });
      for (const pattern of open) allowedPatterns.add(pattern);
    },
    async request(request: EgressRequest) {
      const origin = originOf(request.destination);
      if (allowedOrigins.has(origin)) return;
      await asking(networkRequest(origin, request, input.line));
      allowedOrigins.add(origin);
    },
  };
  return { gate, refusal: () => refusal };
}

/** The ask for a request to `origin`: the full first URL, the command making it, the agent's call. */
function networkRequest(origin: string, request: EgressRequest, line: string): PermissionRequest {
  const via = request.url !== request.destination ? ` (through ${originOf(request.url)})` : "";
  return {
    permission: NETWORK_PERMISSION,
    patterns: [origin],
    always: [origin],
    metadata: {
      url: request.destination,
      origin,
      method: request.method,
      command: request.command,
      from: line,
      detail: `${request.method} ${request.destination}${via}${request.command.trim() === line.trim() ? "" : `, from the agent's command: ${line}`}`,
    },
  };
}

function fromNote(line: string, shown: string): string | undefined {
  return shown.trim() === line.trim() ? undefined : `From the agent's command: ${line}`;
}

/** URLs written in a command line (for runtimes that cannot show requests as they are made). */
const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s'"`<>|;&()]+/gi;
/** Download clients: their first operand is where they go (curl's default scheme is http). */
const DOWNLOAD_CLIENTS = new Set(["curl", "wget"]);
const NPM_INSTALLS = new Set(["install", "i", "ci", "add", "update", "exec"]);

/**
 * Where a download client (curl, wget) given as its canonical words goes: the origin of its first
 * operand, "*" when it names none the text can tell; undefined for any other command.
 */
export function downloadTarget(words: readonly string[]): string | undefined {
  if (!DOWNLOAD_CLIENTS.has(words[0] ?? "")) return undefined;
  const operand = words.slice(1).find((word) => !word.startsWith("-") && /^[a-z0-9.-]+\.[a-z]{2,}|:\/\//i.test(word));
  if (operand === undefined) return "*";
  const origin = originOf(/^[a-z][a-z0-9+.-]*:\/\//i.test(operand) ? operand : `http://${operand}`);
  return /^https?:\/\//.test(origin) ? origin : "*";
}

/**
 * The asks for a command line judged by its text (runtimes without a gate): its simple commands
 * against the bash rules, each site it names (a URL in it, a download client's target) against the
 * network rules, and, for a line whose commands or destinations cannot be known before it runs
 * (eval, scripts, package scripts and installs, a command named by a variable, a download client
 * without a target), one network ask for any site, marked `unanalysable`.
 */
export function textChecks(line: string, description: string): PermissionRequest[] {
  const { patterns, always, unanalysable } = bashPermission(line);
  const requests: PermissionRequest[] = [{ permission: "bash", patterns, always, metadata: { command: line, description } }];
  const origins = new Set<string>();
  let unnamed = unanalysable.length > 0;
  for (const pattern of patterns) {
    const words = pattern.split(/\s+/);
    const target = downloadTarget(words);
    if (target !== undefined) origins.add(target);
    for (const match of pattern.matchAll(URL_IN_TEXT)) origins.add(originOf(match[0]));
    if (words[0] === "npm" && NPM_INSTALLS.has(words[1] ?? "")) unnamed = true;
    if (words[0] === "pip" || words[0] === "pip3" || (/^python3?$/.test(words[0] ?? "") && words[1] === "-m" && words[2] === "pip")) unnamed = true;
  }
  for (const origin of origins) {
    // "*": a download client whose target the text does not tell; only an allow of every site covers it.
    requests.push({ permission: NETWORK_PERMISSION, patterns: [origin], always: origin === "*" ? [] : [origin], metadata: { url: origin, origin, command: line, description } });
  }
  if (unnamed) {
    requests.push({
      permission: NETWORK_PERMISSION,
      patterns: ["*"],
      always: [],
      metadata: {
        command: line,
        description,
        unanalysable: true,
        detail: "This runtime runs the line in its own shell: the commands it runs and the sites they reach cannot be checked before it runs.",
      },
    });
  }
  return requests;
}
