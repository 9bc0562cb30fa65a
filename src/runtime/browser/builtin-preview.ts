// The browser runtime's side of the built-in preview: one preview session per served folder, the
// server-ready events the Preview panel listens to, and the start request the terminal's dev-server
// commands (dev-server-commands.ts) and the panel's "Open preview" make.
import { Emitter, toDisposable, type Disposable } from "../../base";
import { ProjectPostcss, type NodeProgramRunner, type PreviewHub, type PreviewSession } from "../preview";
import { snapshot } from "../node";
import type { SandboxHost } from "../sandbox";
import { serverResponder } from "../preview/server-preview";
import { VITE_CONFIGS } from "../preview/unsupported";
import { previewReply, requestInit } from "../preview/server-preview";
import { proxiedUrl, viteProxyRules } from "../preview/vite-proxy";
import { isLocalUrl, type LocalServers } from "../sandbox/local-servers";
import type { ChangeSource, PreviewHotUpdate, PreviewReply, PreviewRequest, PreviewStart, PreviewStartOptions } from "../types";
import type { WorkspaceFiles } from "../workspace-files";

/** The port a preview reports when its command named none (Vite's default). */
export const DEFAULT_PREVIEW_PORT = 5173;

export class BuiltinPreview implements Disposable {
  /** `startedBy`: who started the session last (replayed with it). */
  private readonly sessions = new Map<string, { session: PreviewSession; port: number; startedBy?: ChangeSource; postcss?: ProjectPostcss }>();
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
    /** Where the project's PostCSS runs (node on the isolated execution host); without it CSS is used as written. */
    private readonly node?: SandboxHost,
  ) {
    this.watch = files.onDidChange((changes) => {
      for (const { postcss } of this.sessions.values()) postcss?.changed();
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
          session = this.hub.openResponder(serverResponder((path, request) => servers.fetch(`http://localhost:${port}${path}`, requestInit(request)), () => base.url));
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
      const postcss = this.node ? new ProjectPostcss(this.files, root, nodeProgramRunner(this.node, this.files)) : undefined;
      entry = { session: this.hub.open(this.files, root, { postcss }), port: options.port ?? DEFAULT_PREVIEW_PORT + this.sessions.size, postcss };
      this.sessions.set(root, entry);
    }
    entry.startedBy = options.source;
    this.ready.fire({ port: entry.port, url: entry.session.url, startedBy: options.source });
    return { url: entry.session.url, root, port: entry.port, postcssRuns: entry.postcss !== undefined };
  }

  async request(url: string, request?: PreviewRequest): Promise<PreviewReply | undefined> {
    const route = this.hub.route(url);
    if (!route || !this.ours(route.session)) return undefined;
    const folder = [...this.sessions.entries()].find(([, e]) => e.session === route.session)?.[0];
    if (folder !== undefined) {
      const proxied = await this.proxy(folder, route.path + new URL(url).search, request);
      if (proxied) return proxied;
    }
    return this.hub.handle(url, "raw", request);
  }

  /** A request the folder's vite.config sends elsewhere (server.proxy): to a server of this tab, as Vite's dev server would. */
  private async proxy(root: string, path: string, request?: PreviewRequest): Promise<PreviewReply | undefined> {
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
      return await previewReply(await this.servers.fetch(target, requestInit(request)));
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

/** How long the preview's PostCSS run may take before its CSS is used as written (and the notice says so). */
const POSTCSS_TIMEOUT_MS = 60_000;

/**
 * Runs a node program of the preview (its PostCSS step) over the workspace as node programs see it,
 * in the served folder. Its file changes are not replayed: it is the preview's, not the user's.
 */
export function nodeProgramRunner(host: SandboxHost, files: WorkspaceFiles): NodeProgramRunner {
  return async ({ name, source, stdin, cwd }) => {
    const workspace = snapshot(files);
    const program = `/tmp/${name}`;
    let stdout = "";
    let stderr = "";
    const result = await host.run(
      {
        type: "run",
        files: [...workspace.files, [program, source]],
        dirs: workspace.dirs,
        args: [program],
        env: { HOME: "/workspace", NODE_ENV: "development" },
        cwd: cwd === "" ? "/workspace" : `/workspace/${cwd}`,
        stdin,
      },
      { timeoutMs: POSTCSS_TIMEOUT_MS, onStdout: (text) => (stdout += text), onStderr: (text) => (stderr += text) },
    );
    if (result.end === "timeout") stderr += `did not finish within ${POSTCSS_TIMEOUT_MS / 1000} s\n`;
    else if (result.message) stderr += `${result.message}\n`;
    return { exitCode: result.exitCode, stdout, stderr };
  };
}
