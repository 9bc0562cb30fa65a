// The built-in preview in the Preview panel: the site the browser runtime serves from the workspace
// (src/runtime/preview) in a frame, with the site's path in the address bar. The frame's document is
// an opaque origin (the service worker's CSP sandbox): it talks to this panel by postMessage only,
// to report its path and errors and to fetch() the site's files. A file change updates it in place
// when only modules changed (a hot update: src/runtime/preview/hot-update.ts), else reloads it on the
// same path.
import { useEffect, useId, useRef, useState } from "react";
import type { PreviewRequest, Runtime } from "../../runtime";
import { IconButton, Icon } from "../common";
import { blockedOrigin, previewFrameDocument, previewRequestPolicies, type PreviewRequestPolicies } from "./request-policy";
import { startAppServiceWorker } from "./service-worker";

/** Frames reload this long after the last change of a burst (an agent writing several files). */
export const PREVIEW_RELOAD_DEBOUNCE_MS = 40;
const WORKER_WAIT_MS = 30_000;
/** A hot update the frame has not confirmed in this time is replaced by a reload. */
const HOT_UPDATE_TIMEOUT_MS = 5_000;

interface PreviewMessage {
  source: "webcode-preview";
  kind: "location" | "error" | "fetch" | "hot-result" | "blocked" | "notices";
  path?: string;
  /** With "blocked": the refused request's address and the policy directive that refused it. */
  url?: string;
  directive?: string;
  /** With "location": the page build's id, for hot updates. */
  build?: string;
  /** With "notices": what the built-in preview does not do for this project that Vite would (PostCSS, Tailwind, Vite plugins). */
  notices?: unknown;
  /** With "hot-result". */
  id?: number;
  ok?: boolean;
  message?: string;
  /** With "fetch": the page's request when it is not a plain GET. */
  method?: unknown;
  headers?: unknown;
  body?: unknown;
}

function isPreviewMessage(data: unknown): data is PreviewMessage {
  return typeof data === "object" && data !== null && (data as { source?: unknown }).source === "webcode-preview";
}

/** The site path typed in the address bar, as a path of the site ("about.html" → "/about.html"). */
export function sitePath(typed: string, base: string): string {
  let text = typed.trim();
  if (text.startsWith(base)) text = text.slice(base.length - 1);
  return text.startsWith("/") ? text : `/${text}`;
}

export interface BuiltinPreviewFrameProps {
  runtime: Runtime;
  base: string;
  actions?: React.ReactNode;
  /** Where "Allow" writes the origins this preview may reach (default: this page's). */
  policies?: PreviewRequestPolicies;
}

/** What the policy's directives block, in the panel's words. */
const REQUEST_KINDS: Record<string, string> = {
  "connect-src": "fetch, beacon or socket",
  "img-src": "image",
  "form-action": "form",
  "script-src": "script",
  "script-src-elem": "script",
  "style-src": "stylesheet",
  "style-src-elem": "stylesheet",
  "font-src": "font",
  "media-src": "media",
  "frame-src": "frame",
  "worker-src": "worker",
  "manifest-src": "manifest",
  "object-src": "plugin",
};

/** A blocked origin as the panel lists it: what kinds of request went there. */
interface Blocked {
  origin: string;
  kinds: string[];
}

export function BuiltinPreviewFrame({ runtime, base, actions, policies = previewRequestPolicies }: BuiltinPreviewFrameProps) {
  const [worker, setWorker] = useState<"waiting" | "ready" | "unavailable">("waiting");
  const [src, setSrc] = useState(base);
  const [reloads, setReloads] = useState(0);
  const [typed, setTyped] = useState("/");
  const [blocked, setBlocked] = useState<Blocked[]>([]);
  const [notices, setNotices] = useState<string[]>([]);
  const current = useRef("/");
  /** The page build the frame runs (from its prelude); undefined until it reports one. */
  const build = useRef<string | undefined>(undefined);
  const hotResults = useRef(new Map<number, (ok: boolean) => void>());
  const frame = useRef<HTMLIFrameElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const inputId = useId();

  useEffect(() => {
    let live = true;
    const container = navigator.serviceWorker as ServiceWorkerContainer | undefined;
    if (!container) {
      setWorker("unavailable");
      return;
    }
    startAppServiceWorker();
    const timer = setTimeout(() => live && setWorker((state) => (state === "waiting" ? "unavailable" : state)), WORKER_WAIT_MS);
    void container.ready.then(() => {
      clearTimeout(timer);
      if (live) setWorker("ready");
    });
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, []);

  /** The previewed page's window: the only frame of the panel's frame (previewFrameDocument). */
  const pageWindow = (): Window | undefined => frame.current?.contentWindow?.frames[0] ?? undefined;

  /**
   * The page navigating itself somewhere not allowed is refused by its frame's policy, whose
   * violations are reported in that frame's document (webcode's origin: readable here). Watched from
   * as soon as that document exists (a page can navigate before its frame's load event), and again
   * at load in case the first look came too early.
   */
  const watchNavigations = () => {
    const attach = () => {
      const document = frame.current?.contentDocument;
      if (!document || document.URL !== "about:srcdoc") return false;
      if (!watched.current.has(document)) {
        watched.current.add(document);
        document.addEventListener("securitypolicyviolation", (event) => reportBlocked(event.blockedURI, "navigation"));
      }
      return true;
    };
    if (attach()) return;
    const timer = setInterval(() => {
      if (attach() || !frame.current) clearInterval(timer);
    }, 20);
  };
  const watched = useRef(new WeakSet<Document>());
  // Each new frame (a reload, another policy) is watched from its start.
  useEffect(() => {
    if (worker === "ready") watchNavigations();
    // watchNavigations only reads refs and state setters.
  }, [worker, src, reloads]);

  /** Lists a refused request's origin (from the page's prelude or its frame's policy). */
  const reportBlocked = (url: string, kind: string) => {
    // The page can claim anything here; it only ever leads to a button the user presses.
    const origin = blockedOrigin(url);
    if (origin === undefined || policies.allowedFor(base).includes(origin)) return;
    setBlocked((list) => {
      const known = list.find((b) => b.origin === origin);
      if (!known) return [...list, { origin, kinds: [kind] }];
      if (known.kinds.includes(kind)) return list;
      return list.map((b) => (b === known ? { origin, kinds: [...b.kinds, kind] } : b));
    });
  };

  /**
   * Shows `path`. `fresh` replaces the frame (the Reload button: it also recovers from a page that
   * hangs); otherwise the frame navigates in place, which keeps its process and is faster.
   */
  const navigate = (path: string, fresh = true) => {
    current.current = path;
    build.current = undefined;
    setTyped(path);
    const next = base + path.replace(/^\//, "");
    const view = pageWindow();
    if (!fresh && view) {
      view.location.replace(next);
      return;
    }
    setSrc(next);
    setReloads((n) => n + 1);
  };

  // Messages from the previewed page: only from this frame's window, whatever it claims to be.
  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      const view = pageWindow();
      if (!view || event.source !== view || !isPreviewMessage(event.data)) return;
      const data = event.data;
      if (data.kind === "hot-result" && typeof data.id === "number") {
        hotResults.current.get(data.id)?.(data.ok === true);
      } else if (data.kind === "notices" && Array.isArray(data.notices)) {
        // Text from the page: shown as text, a few short lines at most.
        const next = data.notices.filter((n): n is string => typeof n === "string").slice(0, 8).map((n) => n.slice(0, 400));
        setNotices((old) => (old.join("\n") === next.join("\n") ? old : next));
      } else if (data.kind === "blocked" && typeof data.url === "string") {
        reportBlocked(data.url, (typeof data.directive === "string" && REQUEST_KINDS[data.directive]) || "request");
      } else if (data.kind === "location" && typeof data.path === "string") {
        current.current = data.path;
        build.current = typeof data.build === "string" ? data.build : undefined;
        if (document.activeElement !== input.current) setTyped(data.path);
      } else if (data.kind === "fetch" && typeof data.path === "string" && event.ports[0]) {
        const port = event.ports[0];
        void (runtime.previewRequest?.(base + data.path.replace(/^\//, ""), pageRequest(data)) ?? Promise.resolve(undefined)).then(
          (reply) => {
            const body = reply ? (typeof reply.body === "string" ? new TextEncoder().encode(reply.body) : reply.body.slice()).buffer : new ArrayBuffer(0);
            port.postMessage({ status: reply?.status ?? 404, contentType: reply?.contentType ?? "text/plain", headers: reply?.headers ?? [], body }, [body]);
          },
          () => port.postMessage({ status: 500, contentType: "text/plain", body: new ArrayBuffer(0) }),
        );
      }
    };
    window.addEventListener("message", onMessage);
    return () => window.removeEventListener("message", onMessage);
  }, [runtime, base, policies]);

  /** Lets this preview reach `origin` and loads the page again under the new policy. */
  const allow = (origin: string) => {
    policies.allow(base, origin);
    setBlocked((list) => list.filter((b) => b.origin !== origin));
    navigate(current.current);
  };

  // A save (or any change of the workspace) updates the page in place when only its modules changed,
  // else reloads it on the path it is showing. Updates run one after another.
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let queue = Promise.resolve();
    let live = true;
    let nextId = 0;
    const hotUpdate = async (): Promise<boolean> => {
      const view = pageWindow();
      const page = build.current;
      if (!view || page === undefined || !runtime.previewUpdate) return false;
      const update = await runtime.previewUpdate(base, page).catch(() => undefined);
      if (!live || update?.kind !== "hot" || pageWindow() !== view || build.current !== page) return false;
      const id = ++nextId;
      const applied = new Promise<boolean>((resolve) => {
        const timeout = setTimeout(() => resolve(false), HOT_UPDATE_TIMEOUT_MS);
        hotResults.current.set(id, (ok) => {
          clearTimeout(timeout);
          resolve(ok);
        });
      });
      const { imports, entries, removeStyles, shell } = update;
      // The frame is an opaque origin: "*" is the only target origin that reaches it.
      view.postMessage({ source: "webcode-preview-host", kind: "hot", id, imports, entries, removeStyles, shell }, "*");
      const ok = await applied;
      hotResults.current.delete(id);
      return ok;
    };
    const subscription = runtime.fs.onDidChange(() => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        queue = queue.then(async () => {
          if (!(await hotUpdate()) && live) navigate(current.current, false);
        });
      }, PREVIEW_RELOAD_DEBOUNCE_MS);
    });
    return () => {
      live = false;
      clearTimeout(timer);
      subscription.dispose();
    };
    // navigate only reads refs and state setters, so it need not be a dependency.
  }, [runtime, base]);

  return (
    <div className="preview-panel">
      <form
        className="preview-bar"
        onSubmit={(event) => {
          event.preventDefault();
          navigate(sitePath(typed, base));
        }}
      >
        <IconButton icon="refresh" label="Reload preview" onClick={() => navigate(current.current)} />
        <label htmlFor={inputId} className="visually-hidden">
          Preview path
        </label>
        <input
          id={inputId}
          ref={input}
          className="text-input"
          value={typed}
          spellCheck={false}
          onChange={(event) => setTyped(event.target.value)}
        />
        {actions}
      </form>
      {notices.length > 0 && (
        <section className="preview-notices" aria-label="Not applied by the built-in preview">
          <ul>
            {notices.map((n) => (
              <li key={n}>{n}</li>
            ))}
          </ul>
        </section>
      )}
      {blocked.length > 0 && (
        <section className="preview-blocked" aria-label="Blocked requests">
          <p>This page tried to reach other sites. Nothing was sent; allow a site to let the page reach it, then the page reloads.</p>
          <ul>
            {blocked.map((b) => (
              <li key={b.origin}>
                <span className="preview-blocked-origin">{b.origin}</span>
                <span className="preview-blocked-kind">({b.kinds.join("; ")})</span>
                <button type="button" className="button" onClick={() => allow(b.origin)}>
                  Allow {b.origin}
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
      {worker === "ready" ? (
        <iframe
          key={`${src}#${reloads}`}
          ref={frame}
          className="preview-frame"
          title="Preview"
          srcDoc={previewFrameDocument(src, base, policies.allowedFor(base))}
          allow="clipboard-write"
          data-preview-src={src}
          onLoad={watchNavigations}
        />
      ) : worker === "waiting" ? (
        <div className="preview-message" role="status">
          Starting the preview…
        </div>
      ) : (
        <div className="preview-message" role="alert">
          <Icon name="globe" size={32} />
          <p>The preview needs a service worker, which this browser does not allow for this page (a private window can block it). Open webcode in a normal window.</p>
        </div>
      )}
      <p className="preview-note">
        Served by the browser runtime from the workspace files; it updates when they change. The site runs sandboxed, with no access to webcode, and reaches no other site unless you allow it.
      </p>
    </div>
  );
}

/**
 * The page's fetch() as it asked (prelude.ts): its method, headers and body, checked for shape (the
 * page is untrusted); undefined for a plain GET.
 */
function pageRequest(data: { method?: unknown; headers?: unknown; body?: unknown }): PreviewRequest | undefined {
  const method = typeof data.method === "string" && /^[A-Z]{1,16}$/.test(data.method) ? data.method : "GET";
  const headers = Array.isArray(data.headers)
    ? data.headers.filter((h): h is [string, string] => Array.isArray(h) && h.length === 2 && typeof h[0] === "string" && typeof h[1] === "string").slice(0, 100)
    : [];
  const body = data.body instanceof ArrayBuffer ? new Uint8Array(data.body) : undefined;
  return method === "GET" && headers.length === 0 && !body ? undefined : { method, headers, body };
}
