// The browser runtime's gate on what a command line does (docs/architecture.md, "Egress gate"):
// each simple command is shown to the run's gate as it is about to run (after expansion, wherever it
// comes from: pipelines, xargs, eval, scripts, package scripts), and every request a command makes
// (curl, npm's registry, pip's index, git's remote) is shown to it before a byte leaves, with the
// destination it really goes to. Runs without a gate (what the user types) go ahead; every request
// is written to the page's network log either way.
import type { ChangeSource } from "./types";

/** One request a command is about to make. */
export interface EgressRequest {
  /** The URL fetched (for git through a CORS proxy: the proxy's URL). */
  url: string;
  /** Where the bytes are meant to arrive: the URL itself, or the git remote behind a CORS proxy. */
  destination: string;
  method: string;
  /** The command that makes it, as it runs ("npm install left-pad", "curl -d @.env https://…"). */
  command: string;
}

/**
 * What a caller (the agent's bash tool) checks while its command line runs. A rejection stops what
 * was asked: the command fails (exit 126, its message on stderr) or the request fails as an
 * offline one would.
 */
export interface ExecGate {
  command(argv: readonly string[], info: { cwd: string }): Promise<void>;
  request(request: EgressRequest): Promise<void>;
}

/** A request the gate refused. A TypeError, as fetch's own network failures are, so callers treat it as unreachable. */
export class EgressRefusedError extends TypeError {
  constructor(
    readonly destination: string,
    reason: string,
  ) {
    super(`the request to ${destination} was not allowed: ${reason}`);
    this.name = "EgressRefusedError";
  }
}

/** What a command's own fetch accepts: `destination` names the real target when `input` is a proxy. */
export type GatedFetch = (input: string, init?: RequestInit & { destination?: string }) => Promise<Response>;

export interface NetworkLogEntry {
  at: number;
  method: string;
  url: string;
  destination: string;
  /** Who ran the command: "agent" for the agent's, "terminal" for what the user typed. */
  by: ChangeSource;
  command: string;
  outcome: "sent" | "refused";
}

/** The page's record of requests made by commands, newest last (the last `limit`). */
export class NetworkLog {
  private readonly list: NetworkLogEntry[] = [];
  private readonly listeners = new Set<() => void>();
  /** Changes with every record (a snapshot for React's useSyncExternalStore). */
  version = 0;

  constructor(private readonly limit = 500) {}

  record(entry: NetworkLogEntry): void {
    this.version++;
    this.list.push(entry);
    if (this.list.length > this.limit) this.list.splice(0, this.list.length - this.limit);
    for (const listener of [...this.listeners]) listener();
  }

  entries(): readonly NetworkLogEntry[] {
    return this.list.slice();
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** The origin of a URL, or the URL itself when it has none (a malformed one is checked as written). */
export function originOf(url: string): string {
  try {
    const origin = new URL(url).origin;
    return origin === "null" ? url : origin;
  } catch {
    return url;
  }
}

/**
 * A fetch that records each request in `log` (webfetch and MCP, whose asks happen in their tools:
 * the log shows what then left). `what` names the tool ("webfetch", "MCP server docs").
 */
export function recordingFetch(log: NetworkLog, base: typeof fetch, by: ChangeSource, what: string): typeof fetch {
  return (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const method = (init?.method ?? (typeof input === "object" && "method" in input ? input.method : "GET")).toUpperCase();
    log.record({ at: Date.now(), method, url, destination: url, by, command: what, outcome: "sent" });
    return base(input, init);
  };
}
