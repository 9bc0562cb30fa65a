// One preview of a workspace folder: answers the requests of the previewed site (page navigations
// through the service worker, fetch() calls through the panel) from the workspace files, and says
// when a change to them should reload the page.
import { contentTypeOf, extensionOf } from "./content-types";
import { buildPage, buildPageOrThrow, errorPage } from "./html-document";
import { planHotUpdate, type FramePage, type HotUpdate } from "./hot-update";
import { ModuleCompiler, PreviewBuildError } from "./module-compiler";
import type { PreviewFiles } from "./module-resolution";
import { loadViteEnv } from "./vite-env";
import type { PostcssStep } from "./postcss";
import { configNotices } from "./unsupported";
import { decodeUrlPath, encodeUrlPath, joinPath, underRoot, withinRoot } from "./preview-paths";

export interface PreviewResponse {
  status: number;
  contentType: string;
  body: string | Uint8Array;
  /** For a redirect (a folder without its trailing slash). */
  location?: string;
  /** Other response headers (a program's server's), for the page's fetch(). */
  headers?: Array<[name: string, value: string]>;
}

export interface PreviewServerOptions {
  /** This preview's URL prefix, ending in "/" ("http://host/__preview/<session>/"). */
  base: string;
  /** The served folder ("" for the workspace). */
  root: string;
  /** import.meta.env.MODE (default "development"). */
  mode?: string;
  /** The project's PostCSS, run on the isolated execution host (postcss.ts); without it CSS is used as written, and the notices say so. */
  postcss?: PostcssStep;
}

/** Pages served recently whose frames may ask for a hot update (older ones reload instead). */
const KEPT_PAGES = 16;

export class PreviewServer {
  readonly compiler: ModuleCompiler;
  private readonly pages = new Map<string, FramePage>();

  constructor(
    private readonly files: PreviewFiles,
    private readonly options: PreviewServerOptions,
  ) {
    this.compiler = new ModuleCompiler(files, options.root, {
      moduleUrl: (path) => this.urlOf(path),
      env: { BASE_URL: "/", MODE: options.mode ?? "development", DEV: (options.mode ?? "development") !== "production", PROD: options.mode === "production", SSR: false },
      postcss: options.postcss,
    });
  }

  get root(): string {
    return this.options.root;
  }

  get base(): string {
    return this.options.base;
  }

  /** The URL a workspace path is served at: under the root by its path, elsewhere under "@fs/". */
  urlOf(path: string): string {
    const query = /\?[a-z0-9]+$/.exec(path)?.[0] ?? "";
    const file = query ? path.slice(0, -query.length) : path;
    const inside = withinRoot(this.options.root, file);
    return `${this.options.base}${inside === undefined ? `@fs/${encodeUrlPath(file)}` : encodeUrlPath(inside)}${query}`;
  }

  /**
   * The answer for `urlPath` ("/", "/about.html", "/src/"), as a page (`page`: HTML with everything
   * inlined) or as the file's bytes (a fetch() of the page).
   */
  async respond(urlPath: string, mode: "page" | "raw" = "page"): Promise<PreviewResponse> {
    const decoded = decodeUrlPath(urlPath.split(/[?#]/, 1)[0] ?? "/");
    if (decoded === undefined) return this.text(400, "Bad request: the address does not decode.");
    // Normalised on its own first: ".." may not climb out of the served folder.
    const inSite = joinPath(decoded.startsWith("/@fs/") ? decoded.slice(5) : decoded);
    if (inSite === undefined) return this.notFound(decoded, mode);
    const relative = decoded.startsWith("/@fs/") ? inSite : underRoot(this.options.root, inSite);
    let path = relative;
    const stat = await this.files.stat(path);
    if (stat?.kind === "dir") {
      if (!decoded.endsWith("/") && decoded !== "") return { status: 308, contentType: "text/plain", body: "", location: `${decoded}/` };
      path = path === "" ? "index.html" : `${path}/index.html`;
    } else if (!stat) {
      // Vite serves public/ at the root of the site.
      const fromPublic = joinPath(this.options.root, "public", decoded);
      if (fromPublic !== undefined && (await this.files.stat(fromPublic))?.kind === "file") path = fromPublic;
    }
    if ((await this.files.stat(path))?.kind !== "file") {
      // A single-page app's own routes ("/settings") get its index.html, as Vite's dev server does.
      const index = underRoot(this.options.root, "index.html");
      if (mode === "page" && extensionOf(decoded) === "" && (await this.files.stat(index))?.kind === "file") path = index;
      else return this.notFound(decoded, mode);
    }
    const type = contentTypeOf(path);
    if (mode === "page" && (extensionOf(path) === "html" || extensionOf(path) === "htm")) {
      const html = await this.files.readText(path);
      await this.loadEnv();
      const build = crypto.randomUUID();
      const built = await buildPage(html, path, { files: this.files, compiler: this.compiler, root: this.options.root, prelude: { ...this.prelude(), build, notices: await this.notices() } });
      if (built.page) {
        this.pages.set(build, { htmlPath: path, page: built.page, versions: new Map() });
        for (const old of this.pages.keys()) if (this.pages.size > KEPT_PAGES) this.pages.delete(old);
      }
      return { status: 200, contentType: type, body: built.html };
    }
    const bytes = await this.files.readFile(path);
    return { status: 200, contentType: type, body: bytes };
  }

  /**
   * What brings the frame showing page build `build` (its prelude reports the id) up to date with
   * the files: the modules to evaluate again, or a reload (hot-update.ts says when).
   */
  async hotUpdate(build: string): Promise<HotUpdate> {
    const current = this.pages.get(build);
    if (!current) return { kind: "reload", reason: "the page is not one this preview can update" };
    try {
      if ((await this.files.stat(current.htmlPath))?.kind !== "file") return { kind: "reload", reason: `${current.htmlPath} is gone` };
      const html = await this.files.readText(current.htmlPath);
      await this.loadEnv();
      const next = await buildPageOrThrow(html, current.htmlPath, { files: this.files, compiler: this.compiler, root: this.options.root, prelude: this.prelude() });
      return planHotUpdate(current, next.page);
    } catch (error) {
      // A build error is shown by the reload's page, with file and line.
      if (error instanceof PreviewBuildError) return { kind: "reload", reason: error.message };
      throw error;
    }
  }

  /** import.meta.env from the served folder's .env files (read again for every build: they may have changed). */
  private async loadEnv(): Promise<void> {
    this.compiler.setEnv(await loadViteEnv(this.files, this.options.root, this.options.mode ?? "development"));
  }

  /** What the built-in preview does not do for the served project that Vite would (unsupported.ts). */
  async notices(): Promise<string[]> {
    return configNotices(async (name) => {
      const path = joinPath(this.options.root, name);
      return path !== undefined && (await this.files.stat(path))?.kind === "file" ? this.files.readText(path) : undefined;
    }, { postcssRuns: this.options.postcss !== undefined });
  }

  private prelude() {
    return { base: this.options.base, root: this.options.root };
  }

  private notFound(path: string, mode: "page" | "raw"): PreviewResponse {
    if (mode === "raw") return this.text(404, `Not found: ${path}`);
    const error = new PreviewBuildError(`404 Not found: ${path} is not in the previewed folder.`, underRoot(this.options.root, path.replace(/^\//, "")));
    return { status: 404, contentType: "text/html; charset=utf-8", body: errorPage(error, this.prelude()) };
  }

  private text(status: number, text: string): PreviewResponse {
    return { status, contentType: "text/plain; charset=utf-8", body: text };
  }
}
