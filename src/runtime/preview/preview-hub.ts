// The page's built-in previews: one PreviewServer per served folder of an open workspace, each
// under its own unguessable URL prefix of this origin (/__preview/<session>/). The service worker
// asks the page for a URL under that prefix (ui/preview connects it); whoever holds the session answers.
import { toDisposable, type Disposable } from "../../base";
import type { PreviewFiles } from "./module-resolution";
import type { HotUpdate } from "./hot-update";
import type { PreviewResponse, PreviewServer, PreviewServerOptions } from "./preview-server";
import type { PreviewRequest } from "../types";

export const PREVIEW_PREFIX = "/__preview/";

export interface PreviewSession extends Disposable {
  readonly id: string;
  /** The site's address ("http://host/__preview/<session>/"). */
  readonly url: string;
  /** The server, loaded with the first request (the compiler is a chunk of its own, not in the app's first one). */
  server(): Promise<PreviewServer>;
  /** Files were added or removed, or a package.json changed: imports are resolved again. */
  forgetResolutions(): void;
}

/** Answers a preview's requests itself (a program's server on localhost:PORT): the path with its query. */
/** `request`: a fetch() of the page that is not a plain GET (its method, headers and body). */
export type PreviewResponder = (path: string, mode: "page" | "raw", request?: PreviewRequest) => Promise<PreviewResponse>;

export class PreviewHub {
  private readonly sessions = new Map<string, PreviewSession>();
  private readonly responders = new Map<string, PreviewResponder>();

  constructor(
    /** This page's origin ("http://127.0.0.1:4173"). */
    readonly origin: string,
    private readonly newId: () => string = () => crypto.randomUUID(),
  ) {}

  /** Starts serving `root` of `files`; dispose the session to stop. `postcss`: the project's PostCSS for this folder (postcss.ts). */
  open(files: PreviewFiles, root: string, options: Pick<PreviewServerOptions, "postcss"> = {}): PreviewSession {
    const id = this.newId().replace(/[^A-Za-z0-9_-]/g, "");
    const url = `${this.origin}${PREVIEW_PREFIX}${id}/`;
    let loaded: Promise<PreviewServer> | undefined;
    const server = () => (loaded ??= import("./preview-server").then(({ PreviewServer }) => new PreviewServer(files, { base: url, root, postcss: options.postcss })));
    const dispose = toDisposable(() => this.sessions.delete(id));
    const session: PreviewSession = {
      id,
      url,
      server,
      forgetResolutions: () => void loaded?.then((s) => s.compiler.forgetResolutions()),
      dispose: () => dispose.dispose(),
    };
    this.sessions.set(id, session);
    return session;
  }

  /**
   * Serves what `respond` answers under a session URL of its own (a program's server: its pages
   * reach the Preview through the service worker as the built-in preview's do). Hot updates: a reload.
   */
  openResponder(respond: PreviewResponder): PreviewSession {
    const id = this.newId().replace(/[^A-Za-z0-9_-]/g, "");
    const url = `${this.origin}${PREVIEW_PREFIX}${id}/`;
    const session: PreviewSession = {
      id,
      url,
      server: () => Promise.reject(new Error("this preview is a program's server, not a served folder")),
      forgetResolutions: () => undefined,
      dispose: () => {
        this.sessions.delete(id);
        this.responders.delete(id);
      },
    };
    this.sessions.set(id, session);
    this.responders.set(id, respond);
    return session;
  }

  /** The session a URL belongs to and the site path it names ("/about.html"). */
  route(url: string): { session: PreviewSession; path: string } | undefined {
    let parsed: URL;
    try {
      parsed = new URL(url, this.origin);
    } catch {
      return undefined;
    }
    if (parsed.origin !== this.origin || !parsed.pathname.startsWith(PREVIEW_PREFIX)) return undefined;
    const rest = parsed.pathname.slice(PREVIEW_PREFIX.length);
    const slash = rest.indexOf("/");
    const id = slash < 0 ? rest : rest.slice(0, slash);
    const session = this.sessions.get(id);
    if (!session) return undefined;
    return { session, path: slash < 0 ? "/" : rest.slice(slash) };
  }

  /** The answer for a preview URL, or undefined when no session of this page serves it. */
  async handle(url: string, mode: "page" | "raw" = "page", request?: PreviewRequest): Promise<PreviewResponse | undefined> {
    const route = this.route(url);
    if (!route) return undefined;
    const responder = this.responders.get(route.session.id);
    const response = responder
      ? await responder(route.path + new URL(url, this.origin).search, mode, request)
      : await (await route.session.server()).respond(route.path, mode);
    if (response.location) response.location = new URL(response.location.replace(/^\//, ""), route.session.url).toString();
    return response;
  }

  /** The hot update for the page build `build` of the preview at `url` (a reload when it is not ours). */
  async hotUpdate(url: string, build: string): Promise<HotUpdate> {
    const route = this.route(url);
    if (!route) return { kind: "reload", reason: "no preview of this page serves that address" };
    if (this.responders.has(route.session.id)) return { kind: "reload", reason: "a program's server answers this preview" };
    return (await route.session.server()).hotUpdate(build);
  }
}
