// The page's port registry: which run's program listens on localhost:PORT (http.createServer in the
// browser runtime's node), and the way a request for http://localhost:PORT/… reaches it (curl, the
// Preview, another program) and its answer streams back. Nothing here touches the network: a port
// nobody listens on is refused as a real machine's would be. See docs/architecture.md "Servers".
import type { HeaderList } from "./protocol";

/** Answers one request for a port: the run's program does (sandbox-host.ts sends it over the run's port). */
export type LocalHandler = (request: Request) => Promise<Response>;

/** The lowest port listen(0) gives, as Linux's ephemeral range starts. */
const EPHEMERAL_FROM = 32768;

/** Hosts that mean this machine. */
const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "0.0.0.0", "[::1]", "[::]"]);

/** Whether a URL names this machine (http: only: https to localhost would need a certificate the page cannot offer). */
export function isLocalUrl(url: string | URL): boolean {
  let parsed: URL;
  try {
    parsed = typeof url === "string" ? new URL(url) : url;
  } catch {
    return false;
  }
  return (parsed.protocol === "http:" || parsed.protocol === "https:") && (LOCAL_HOSTS.has(parsed.hostname) || parsed.hostname.endsWith(".localhost"));
}

/** A connection refused: nothing listens on the port (TypeError, as a failed fetch). */
export class ConnectionRefusedError extends TypeError {
  readonly code = "ECONNREFUSED";
  constructor(readonly port: number) {
    super(`Failed to connect to localhost port ${port}: Connection refused (no program in this tab listens on it)`);
  }
}

export class LocalServers {
  private readonly handlers = new Map<number, LocalHandler>();
  private readonly listeners = new Set<(ports: number[]) => void>();

  /** Gives `port` (0: a free one) to `handler`; undefined when another handler has it (EADDRINUSE). */
  claim(port: number, handler: LocalHandler): number | undefined {
    if (port === 0) {
      port = EPHEMERAL_FROM;
      while (this.handlers.has(port)) port += 1;
    }
    if (this.handlers.has(port)) return undefined;
    this.handlers.set(port, handler);
    this.changed();
    return port;
  }

  /** Drops `port` if `handler` still has it (a later run's server on the same port stays). */
  release(port: number, handler: LocalHandler): void {
    if (this.handlers.get(port) !== handler) return;
    this.handlers.delete(port);
    this.changed();
  }

  /** The ports listened on now, in order. */
  ports(): number[] {
    return [...this.handlers.keys()].sort((a, b) => a - b);
  }

  /** Calls back with the ports whenever one is claimed or released; returns the unsubscribe. */
  subscribe(listener: (ports: number[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Whether a program of this tab listens where `url` points (a local URL and a port taken here).
   * A local URL nobody here listens on is left to the caller: the page may reach a service of the
   * user's own machine there (a local registry), as it did before programs could listen.
   */
  handles(url: string | URL): boolean {
    if (!isLocalUrl(url)) return false;
    const parsed = new URL(url);
    return this.handlers.has(Number(parsed.port || (parsed.protocol === "https:" ? 443 : 80)));
  }

  /** fetch() for local URLs: the program on the port answers; none: ConnectionRefusedError. */
  async fetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
    const handler = this.handlers.get(port);
    if (!handler) throw new ConnectionRefusedError(port);
    return handler(request);
  }

  private changed(): void {
    const ports = this.ports();
    for (const listener of this.listeners) listener(ports);
  }
}

/** A Request's headers as they travel to the program (lower-case names, as fetch keeps them). */
export function headerList(headers: Headers): HeaderList {
  return [...headers];
}
