// The browser runtime's side of the built-in preview: one preview session per served folder, the
// server-ready events the Preview panel listens to, and the start request the terminal's dev-server
// commands (dev-server-commands.ts) and the panel's "Open preview" make.
import { Emitter, toDisposable, type Disposable } from "../../base";
import type { PreviewHub, PreviewSession } from "../preview";
import { serverResponder } from "../preview/server-preview";
import { VITE_CONFIGS } from "../preview/unsupported";
import { proxiedUrl, viteProxyRules } from "../preview/vite-proxy";
import { isLocalUrl, type LocalServers } from "../sandbox/local-servers";
import type { ChangeSource, PreviewHotUpdate, PreviewReply, PreviewStart, PreviewStartOptions } from "../types";
import type { WorkspaceFiles } from "../workspace-files";

/** The port a preview reports when its command named none (Vite's default). */
export const DEFAULT_PREVIEW_PORT = 5173;

export class BuiltinPreview implements Disposable {
  /** `startedBy`: who started the session last (replayed with it). */
  private readonly sessions = new Map<string, { session: PreviewSession; port: number; startedBy?: ChangeSource }>();
  private readonly ready = new Emitter<{ port: number; url: string; startedBy?: ChangeSource }>();
  private readonly closed = new Emitter<number>();
  private readonly watch: Disposable;
  /** Programs' servers (localhost:PORT): a preview session per port, kept while this runtime lives so its URL stays the same across restarts of the server. */
  private readonly serverSessions = new Map<number, PreviewSession>();
  private readonly listening = new Set<number>();
  private unwatchServers: (() => void) | undefined;
  private servers: LocalServers | undefined;

  constructor(
    private readonly files: WorkspaceFiles,
    private readonly hub: PreviewHub,
  ) {
    this.watch = files.onDidChange((changes) => {
      // New or removed files change what imports resolve to; package.json what packages export.
      if (changes.some((c) => c.type !== "changed" || c.path.endsWith("package.json"))) {
        for (const { session } of this.sessions.values()) session.forgetResolutions();
      }
    });
  }

  /** Reports each port a program listens on as a server of the Preview (and its closing), served through `servers`. */
  watchServers(servers: LocalServers): void {
    const update = (ports: number[]) => {
      for (const port of ports) {
        if (this.listening.has(port)) continue;
        this.listening.add(port);
        let session = this.serverSessions.get(port);
        if (!session) {
          const base = { url: "" };
          session = this.hub.openResponder(serverResponder((path) => servers.fetch(`http://localhost:${port}${path}`), () => base.url));
          base.url = session.url;
          this.serverSessions.set(port, session);
        }
        this.ready.fire({ port, url: session.url });
      }
      for (const port of [...this.listening]) {
        if (ports.includes(port)) continue;
        this.listening.delete(port);
        this.closed.fire(port);
      }
    };
    this.servers = servers;
    this.unwatchServers = servers.subscribe(update);
    update(servers.ports());
  }

  /** A program's server stopped listening. */
  onServerClosed(listener: (port: number) => void): Disposable {
    return this.closed.event(listener);
  }

  private ours(session: PreviewSession): boolean {
    return [...this.sessions.values()].some((e) => e.session === session) || [...this.serverSessions.values()].includes(session);
  }

  async start(options: PreviewStartOptions = {}): Promise<PreviewStart> {
    const root = options.root ?? (await siteRoot(this.files));
    let entry = this.sessions.get(root);
    if (!entry) {
      entry = { session: this.hub.open(this.files, root), port: options.port ?? DEFAULT_PREVIEW_PORT + this.sessions.size };
      this.sessions.set(root, entry);
    }
    entry.startedBy = options.source;
    this.ready.fire({ port: entry.port, url: entry.session.url, startedBy: options.source });
    return { url: entry.session.url, root, port: entry.port };
  }

  async request(url: string): Promise<PreviewReply | undefined> {
    const route = this.hub.route(url);
    if (!route || !this.ours(route.session)) return undefined;
    const folder = [...this.sessions.entries()].find(([, e]) => e.session === route.session)?.[0];
    if (folder !== undefined) {
      const proxied = await this.proxy(folder, route.path + new URL(url).search);
      if (proxied) return proxied;
    }
    return this.hub.handle(url, "raw");
  }

  /** A request the folder's vite.config sends elsewhere (server.proxy): to a server of this tab, as Vite's dev server would. */
  private async proxy(root: string, path: string): Promise<PreviewReply | undefined> {
    let config: string | undefined;
    for (const name of VITE_CONFIGS) {
      const file = root === "" ? name : `${root}/${name}`;
      if ((await this.files.stat(file))?.kind !== "file") continue;
      config = await this.files.readText(file);
      break;
    }
    const target = config === undefined ? undefined : proxiedUrl(viteProxyRules(config), path);
    if (target === undefined) return undefined;
    const text = (status: number, message: string): PreviewReply => ({ status, contentType: "text/plain; charset=utf-8", body: message });
    if (!isLocalUrl(target)) return text(502, `server.proxy sends ${path} to ${target}: the built-in preview proxies only to servers of this tab (localhost:PORT).\n`);
    if (!this.servers) return text(502, `server.proxy sends ${path} to ${target}, but no program can listen in this runtime.\n`);
    try {
      const response = await this.servers.fetch(target);
      return { status: response.status, contentType: response.headers.get("content-type") ?? "application/octet-stream", body: new Uint8Array(await response.arrayBuffer()) };
    } catch (error) {
      return text(502, `server.proxy: ${target} did not answer: ${error instanceof Error ? error.message : String(error)}\n`);
    }
  }

  async update(url: string, build: string): Promise<PreviewHotUpdate> {
    const route = this.hub.route(url);
    if (!route || !this.ours(route.session)) return { kind: "reload", reason: "not a preview of this runtime" };
    return this.hub.hotUpdate(url, build);
  }

  /** Previews already started are reported during the call (as runtimes replay their servers). */
  onServerReady(listener: (port: number, url: string, startedBy?: ChangeSource) => void): Disposable {
    for (const { session, port, startedBy } of this.sessions.values()) listener(port, session.url, startedBy);
    for (const port of this.listening) listener(port, this.serverSessions.get(port)!.url);
    const subscription = this.ready.event(({ port, url, startedBy }) => listener(port, url, startedBy));
    return toDisposable(() => subscription.dispose());
  }

  dispose(): void {
    this.watch.dispose();
    for (const { session } of this.sessions.values()) session.dispose();
    this.sessions.clear();
    this.unwatchServers?.();
    for (const session of this.serverSessions.values()) session.dispose();
    this.serverSessions.clear();
    this.ready.dispose();
    this.closed.dispose();
  }
}

/** Where the site is: the workspace when it has an index.html, else the shallowest folder with one. */
export async function siteRoot(files: WorkspaceFiles): Promise<string> {
  if ((await files.stat("index.html"))?.kind === "file") return "";
  const candidates = (await files.listAll())
    .filter((f) => f.kind === "file" && /(^|\/)index\.html$/.test(f.path) && !/(^|\/)(node_modules|dist|build|\.[^/]+)\//.test(f.path))
    .map((f) => f.path.slice(0, -"/index.html".length))
    .sort((a, b) => a.split("/").length - b.split("/").length || a.localeCompare(b));
  return candidates[0] ?? "";
}
