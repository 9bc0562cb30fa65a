// The script put first in every page the built-in preview serves. It runs inside the previewed
// page (an opaque origin: no access to webcode) and talks to the Preview panel by postMessage only:
// it reports the page's path, its errors and the requests its policy blocked, shows errors in an overlay with file and line, and
// answers the page's fetch() of its own files through the panel (the service worker does not see
// requests from opaque-origin pages). It is one self-contained function, serialised into the page.

export interface PreludeConfig {
  /** The preview's URL prefix ("http://host/__preview/<session>/"). */
  base: string;
  /** The served folder's workspace path ("" for the workspace), to show workspace paths in errors. */
  root: string;
  /** This page build's id, for hot updates (hot-update.ts); absent on error pages. */
  build?: string;
  /** An error found while building the page (syntax, module not found), shown at once. */
  buildError?: { message: string; file?: string; line?: number; column?: number };
  /** What the preview does not do that Vite would for this project (unsupported.ts): shown on the page and in the overlay. */
  notices?: string[];
}

/** A hot update from the Preview panel (src/runtime/preview/hot-update.ts says what each field is). */
interface HotMessage {
  source: "webcode-preview-host";
  kind: "hot";
  id: number;
  imports: Record<string, string>;
  entries: string[];
  removeStyles: string[];
  shell: string;
}

/**
 * Serialised into the page: it must not use anything from outside its own body. `load` is
 * `(url) => import(url)`, passed from the page's script text so that the app's bundler leaves it alone.
 */
function preludeMain(load: (url: string) => Promise<unknown>, config: PreludeConfig): void {
  // The Preview panel is in webcode's page, the top window: the page's own frame sits in a frame of
  // the panel's that holds its navigation policy (builtin-preview-frame.tsx).
  const post = (message: Record<string, unknown>, transfer: Transferable[] = []) => {
    try {
      window.top!.postMessage({ source: "webcode-preview", ...message }, "*", transfer);
    } catch {
      // Nothing to do when posting fails: a page opened in a tab of its own has no panel to tell.
    }
  };
  const workspacePath = (url: string | undefined): string | undefined => {
    if (!url) return undefined;
    let path = url.split(/[?#]/)[0]!;
    if (!path.startsWith(config.base)) return undefined;
    path = decodeURIComponent(path.slice(config.base.length));
    if (path.startsWith("@fs/")) return path.slice(4);
    return config.root === "" ? path : `${config.root}/${path}`;
  };
  const frameOf = (stack: string | undefined): { file?: string; line?: number; column?: number } => {
    for (const match of (stack ?? "").matchAll(/(https?:\/\/[^\s)]+?):(\d+):(\d+)/g)) {
      // The first frame in the site's own code, not in a package that rethrew the error (react-dom).
      const file = workspacePath(match[1]);
      if (file && !/(^|\/)node_modules\//.test(file)) return { file, line: Number(match[2]), column: Number(match[3]) };
    }
    return {};
  };
  const notices = config.notices ?? [];
  // A visible notice of what the preview does not do (Tailwind, PostCSS, Vite plugins): a page that
  // looks unstyled says why.
  const showNotices = () => {
    // Posted even when there are none: the panel shows the current page's.
    post({ kind: "notices", notices });
    if (notices.length === 0) return;
    const render = () => {
      document.querySelector("webcode-preview-notice")?.remove();
      const host = document.createElement("webcode-preview-notice");
      const shadow = host.attachShadow({ mode: "open" });
      const box = document.createElement("div");
      box.setAttribute("role", "status");
      box.setAttribute(
        "style",
        "position:fixed;left:8px;right:8px;bottom:8px;z-index:2147483646;max-height:40vh;overflow:auto;padding:8px 12px;border-radius:6px;background:#3b2f00;color:#ffe9a8;font:12px/1.4 ui-sans-serif,system-ui,sans-serif;box-shadow:0 2px 8px rgba(0,0,0,.4);white-space:pre-wrap",
      );
      const text = document.createElement("div");
      text.textContent = `Built-in preview, not Vite:\n${notices.map((n) => `- ${n}`).join("\n")}`;
      const close = document.createElement("button");
      close.type = "button";
      close.textContent = "Dismiss";
      close.setAttribute("aria-label", "Dismiss the preview notice");
      close.setAttribute("style", "margin-top:6px");
      close.addEventListener("click", () => host.remove());
      box.append(text, close);
      shadow.append(box);
      document.documentElement.append(host);
    };
    if (document.body) render();
    else document.addEventListener("DOMContentLoaded", render, { once: true });
  };
  let overlay: HTMLElement | undefined;
  const show = (error: { message: string; file?: string; line?: number; column?: number; stack?: string }) => {
    post({ kind: "error", message: error.message, file: error.file, line: error.line });
    const render = () => {
      overlay?.remove();
      const host = document.createElement("webcode-error-overlay");
      const shadow = host.attachShadow({ mode: "open" });
      const box = document.createElement("div");
      box.setAttribute("role", "alert");
      box.setAttribute(
        "style",
        "position:fixed;inset:0;z-index:2147483647;overflow:auto;padding:24px;background:rgba(24,0,0,.94);color:#fdd;font:14px/1.5 ui-monospace,Menlo,Consolas,monospace;white-space:pre-wrap",
      );
      const title = document.createElement("h2");
      title.textContent = "Error in the previewed app";
      title.setAttribute("style", "margin:0 0 8px;font-size:16px;color:#ff8a8a");
      const where = document.createElement("p");
      where.className = "location";
      where.textContent = error.file ? `${error.file}${error.line ? `:${error.line}${error.column ? `:${error.column}` : ""}` : ""}` : "";
      where.setAttribute("style", "margin:0 0 8px;color:#ffb3b3");
      const message = document.createElement("p");
      message.textContent = error.message;
      message.setAttribute("style", "margin:0 0 12px");
      const close = document.createElement("button");
      close.type = "button";
      close.textContent = "Dismiss";
      close.setAttribute("aria-label", "Dismiss the error");
      close.addEventListener("click", () => host.remove());
      box.append(title, where, message);
      if (notices.length > 0) {
        const also = document.createElement("p");
        also.className = "notices";
        also.textContent = `The built-in preview differs from Vite here:\n${notices.map((n) => `- ${n}`).join("\n")}`;
        also.setAttribute("style", "margin:0 0 12px;color:#ffd479");
        box.append(also);
      }
      if (error.stack) {
        const stack = document.createElement("pre");
        // Workspace paths instead of the preview's long module URLs.
        const site = config.root === "" ? "/" : `/${config.root}/`;
        stack.textContent = error.stack.split(`${config.base}@fs/`).join("/").split(config.base).join(site).replace(/\?cjs\b/g, "");
        stack.setAttribute("style", "margin:0 0 12px;opacity:.8;font-size:12px");
        box.append(stack);
      }
      box.append(close);
      shadow.append(box);
      (document.body ?? document.documentElement).append(host);
      overlay = host;
    };
    if (document.body) render();
    else document.addEventListener("DOMContentLoaded", render, { once: true });
  };
  window.addEventListener("error", (event) => {
    const error = event.error as { message?: string; stack?: string } | undefined;
    const fromStack = frameOf(error?.stack);
    const where = fromStack.file ? fromStack : { file: workspacePath(event.filename), line: event.lineno, column: event.colno };
    show({ message: error?.message ?? event.message, ...where, stack: error?.stack });
  });
  window.addEventListener("unhandledrejection", (event) => {
    const reason = event.reason as { message?: string; stack?: string } | undefined;
    show({ message: `Unhandled rejection: ${reason?.message ?? String(event.reason)}`, ...frameOf(reason?.stack), stack: reason?.stack });
  });
  // Requests the preview's Content-Security-Policy blocked (src/sw/service-worker.ts: only the
  // page's own files and the origins allowed in the Preview panel): the panel lists them with an
  // "Allow" for each origin. The browser made no request; this only says which one it refused.
  document.addEventListener("securitypolicyviolation", (event) => {
    // The site's own image and media addresses set by script are read through the panel (below).
    if (/^(img|media)-src$/.test(event.effectiveDirective) && URL.canParse(event.blockedURI) && sitePath(new URL(event.blockedURI)) !== undefined) return;
    post({ kind: "blocked", url: event.blockedURI, directive: event.effectiveDirective });
  });
  const reportLocation = () => {
    const path = location.href.startsWith(config.base) ? `/${location.href.slice(config.base.length)}` : location.pathname;
    post({ kind: "location", path, build: config.build });
  };
  for (const name of ["pushState", "replaceState"] as const) {
    const original = history[name];
    history[name] = function (this: History, ...args: Parameters<History["pushState"]>) {
      original.apply(this, args);
      reportLocation();
    };
  }
  window.addEventListener("popstate", reportLocation);
  window.addEventListener("hashchange", reportLocation);
  reportLocation();
  const base = new URL(config.base);
  /**
   * The site's own address in `url`, as a path from the site's root ("/data.json"), or undefined for
   * another site's. "/x" is the site's: Vite serves the site (public/ included) at "/", this preview
   * under its base.
   */
  const sitePath = (url: URL): string | undefined => {
    if (url.origin !== base.origin) return undefined;
    const href = url.href.startsWith(config.base) ? url.href : new URL(`${url.pathname.slice(1)}${url.search}`, config.base).href;
    return `/${href.slice(config.base.length).split("#")[0]}`;
  };
  type SiteRequest = { method: string; headers: Array<[string, string]>; body?: ArrayBuffer };
  type SiteAnswer = { status: number; contentType: string; headers?: Array<[string, string]>; body: ArrayBuffer };
  /**
   * A file of the site, asked of the panel (the service worker never sees this page's requests); with
   * `request`, the page's own method, headers and body, which a program's server (or Vite's
   * server.proxy to one) answers.
   */
  const siteFile = (path: string, request?: SiteRequest) =>
    new Promise<SiteAnswer>((resolve, reject) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = (event: MessageEvent<SiteAnswer>) => {
        channel.port1.close();
        resolve(event.data);
      };
      setTimeout(() => reject(new TypeError(`The preview did not answer for ${path}`)), 15000);
      post({ kind: "fetch", path, ...request }, request?.body ? [channel.port2, request.body] : [channel.port2]);
    });
  const pageFetch = window.fetch.bind(window);
  window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input), location.href);
    const path = sitePath(url);
    if (path === undefined) return pageFetch(input, init);
    // The page's own request (its URL resolved; the path above is what the site serves it as).
    const request = input instanceof Request ? new Request(input, init) : new Request(url, init);
    const method = request.method.toUpperCase();
    const headers = [...request.headers];
    const body = method === "GET" || method === "HEAD" ? undefined : await request.arrayBuffer();
    const answer = await siteFile(path, method === "GET" && headers.length === 0 ? undefined : { method, headers, body });
    const nullBody = method === "HEAD" || [101, 204, 205, 304].includes(answer.status);
    const responseHeaders = new Headers(answer.headers ?? []);
    responseHeaders.set("Content-Type", answer.contentType);
    return new Response(nullBody ? null : answer.body, { status: answer.status, headers: responseHeaders });
  };
  // An image or media address the page's script sets (React's <img src="/logo.svg">, img.src = …):
  // the page may load nothing from the site's own addresses (its origin is opaque, and its requests
  // bypass the service worker), so each is read through the panel, as fetch() above, and the element
  // pointed at a blob: URL of it. Addresses in the page's HTML, CSS and imports are inlined when the
  // page is built (html-document.ts); this covers the ones set at run time.
  const MEDIA_ADDRESSES: Record<string, string[]> = { IMG: ["src"], SOURCE: ["src"], AUDIO: ["src"], VIDEO: ["src", "poster"], TRACK: ["src"] };
  const mapAddress = (element: Element, attribute: string) => {
    const value = element.getAttribute(attribute);
    if (value === null || value === "" || /^(data|blob):/i.test(value)) return;
    const path = sitePath(new URL(value, location.href));
    if (path === undefined) return;
    siteFile(path).then(
      ({ status, contentType, body }) => {
        // Set again meanwhile: the newer address wins.
        if (status !== 200 || element.getAttribute(attribute) !== value) return;
        element.setAttribute(attribute, URL.createObjectURL(new Blob([body], { type: contentType })));
      },
      () => undefined,
    );
  };
  const mapElement = (element: Element) => {
    for (const attribute of MEDIA_ADDRESSES[element.tagName] ?? []) mapAddress(element, attribute);
  };
  new MutationObserver((records) => {
    for (const record of records) {
      if (record.type === "attributes") mapElement(record.target as Element);
      else
        for (const node of record.addedNodes) {
          if (!(node instanceof Element)) continue;
          mapElement(node);
          for (const inner of node.querySelectorAll("img,source,audio,video,track")) mapElement(inner);
        }
    }
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["src", "poster"] });
  // React's roots, through the hook React DevTools use (react-dom reports each root it commits to it):
  // a hot update unmounts them first, so the old app's effects are cleaned up (its intervals,
  // listeners) instead of running on beside the new one. scheduleRoot is in react-dom's development
  // build only; elsewhere the old tree is just dropped with the old body. Nothing is set when a
  // real DevTools hook is there.
  type Renderer = { scheduleRoot?: (root: unknown, element: null) => void };
  const reactRoots = new Map<unknown, Renderer | undefined>();
  const hookHost = window as unknown as { __REACT_DEVTOOLS_GLOBAL_HOOK__?: unknown };
  if (hookHost.__REACT_DEVTOOLS_GLOBAL_HOOK__ === undefined) {
    const renderers = new Map<number, Renderer>();
    const noop = () => undefined;
    hookHost.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
      supportsFiber: true,
      isDisabled: false,
      renderers,
      inject(internals: Renderer) {
        renderers.set(renderers.size + 1, internals);
        return renderers.size;
      },
      onCommitFiberRoot(id: number, root: unknown) {
        reactRoots.set(root, renderers.get(id));
      },
      onCommitFiberUnmount: noop,
      onPostCommitFiberRoot: noop,
      onScheduleFiberRoot: noop,
      setStrictMode: noop,
      checkDCE: noop,
    };
  }
  const unmountReactRoots = () => {
    const roots = [...reactRoots];
    for (const [root, renderer] of roots) {
      try {
        renderer?.scheduleRoot?.(root, null);
      } catch {
        // A root that will not unmount is dropped with the old body all the same.
      }
    }
    // Unmounting commits the roots once more, which reported them again.
    for (const [root] of roots) reactRoots.delete(root);
  };

  // Hot updates, from the top window only (the Preview panel) and only in the expected shape.
  const isHot = (data: unknown): data is HotMessage => {
    const m = data as Partial<HotMessage> | null;
    return (
      typeof m === "object" && m !== null && m.source === "webcode-preview-host" && m.kind === "hot" && typeof m.id === "number" &&
      typeof m.shell === "string" && Array.isArray(m.entries) && m.entries.every((e) => typeof e === "string" && e.startsWith(config.base)) &&
      Array.isArray(m.removeStyles) && m.removeStyles.every((s) => typeof s === "string") &&
      typeof m.imports === "object" && m.imports !== null && Object.entries(m.imports).every(([k, v]) => k.startsWith(config.base) && typeof v === "string" && v.startsWith("data:text/javascript;"))
    );
  };
  let updating: Promise<unknown> = Promise.resolve();
  window.addEventListener("message", (event) => {
    if (event.source !== window.top || window.top === window || !isHot(event.data)) return;
    const update = event.data;
    updating = updating.then(async () => {
      try {
        // One more import map: Chromium merges it with the first (the URLs are new, so none is ignored).
        const map = document.createElement("script");
        map.type = "importmap";
        map.textContent = JSON.stringify({ imports: update.imports });
        document.head.append(map);
        for (const style of document.querySelectorAll<HTMLStyleElement>("style[data-file]")) {
          if (update.removeStyles.includes(style.dataset.file ?? "")) style.remove();
        }
        // The page's own body again: a fresh root container for the app (React's createRoot is not
        // called twice on one element), without the old app's DOM or the error overlay.
        const fresh = new DOMParser().parseFromString(update.shell, "text/html").body;
        for (const script of fresh.querySelectorAll("script")) script.remove();
        overlay = undefined;
        unmountReactRoots();
        document.body.replaceWith(document.adoptNode(fresh));
        for (const entry of update.entries) await load(entry);
        post({ kind: "hot-result", id: update.id, ok: true });
      } catch (error) {
        post({ kind: "hot-result", id: update.id, ok: false, message: error instanceof Error ? error.message : String(error) });
      }
    });
  });
  showNotices();
  if (config.buildError) show(config.buildError);
}

/** The inline script that runs preludeMain with `config` (safe inside a <script> element). */
export function preludeScript(config: PreludeConfig): string {
  return `(${preludeMain.toString()})((url) => import(url), ${JSON.stringify(config).replace(/</g, "\\u003c")});`;
}
