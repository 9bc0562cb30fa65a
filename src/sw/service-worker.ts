// webcode's service worker (built to /sw.js by scripts/service-worker-plugin.ts). Two jobs:
// 1. Offline: it caches the app shell (every file of the build, listed by the build) when it
//    installs, serves it from that cache, and keeps a new build's files in a cache of their own
//    until the page accepts the update (no mix of old and new chunks).
// 2. The built-in preview: it answers navigations under /__preview/<session>/ by asking the page
//    that holds that session (src/ui/preview/preview-service-worker.ts), and marks what it serves
//    as a sandboxed, opaque-origin document (CSP sandbox without allow-same-origin) whose requests
//    reach only its own files and the origins the user allowed (previewRequestPolicy).
// Hand-written rather than generated (Workbox): the preview routing and the headers must live in
// the same worker, and the precache part is a few dozen lines. It imports nothing.

interface PrecacheManifest {
  version: string;
  files: string[];
}

interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}

interface FetchEvent extends ExtendableEvent {
  readonly request: Request;
  respondWith(response: Promise<Response> | Response): void;
}

interface WindowClient {
  postMessage(message: unknown, transfer: Transferable[]): void;
}

interface WorkerScope {
  __WEBCODE_PRECACHE__?: PrecacheManifest;
  location: Location;
  clients: { matchAll(options: { type: "window"; includeUncontrolled: boolean }): Promise<WindowClient[]>; claim(): Promise<void> };
  skipWaiting(): Promise<void>;
  addEventListener(type: "install" | "activate", listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: "fetch", listener: (event: FetchEvent) => void): void;
  addEventListener(type: "message", listener: (event: MessageEvent) => void): void;
}

const scope = self as unknown as WorkerScope;
const manifest: PrecacheManifest = scope.__WEBCODE_PRECACHE__ ?? { version: "dev", files: [] };
const CACHE_PREFIX = "webcode-shell-";
const CACHE = `${CACHE_PREFIX}${manifest.version}`;
const PREVIEW_PREFIX = "/__preview/";
const PREVIEW_TIMEOUT_MS = 15_000;
/** The earlier build's cache is kept, so a tab still running it can load its lazy chunks. */
const KEEP_CACHES = 2;

/**
 * What the preview's documents run under: an opaque origin (no allow-same-origin: no access to
 * webcode's storage, keys or DOM), no top-level navigation, no pop-ups (a pop-up is a new
 * top-level document: it would load whatever address it is given, past every policy below), framed
 * by webcode only; embeddable in the cross-origin-isolated app (COEP). The request policy
 * (previewRequestPolicy) is added per response.
 */
const PREVIEW_SANDBOX = "sandbox allow-scripts allow-forms allow-modals allow-downloads; frame-ancestors 'self'";
const PREVIEW_HEADERS: Record<string, string> = {
  "Cross-Origin-Embedder-Policy": "credentialless",
  "Cross-Origin-Resource-Policy": "same-origin",
  "Cache-Control": "no-store",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
};

/** An origin the page may name in a policy: scheme, host and port only (nothing that could end a CSP source list). */
const ORIGIN = /^(https?|wss?):\/\/(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/i;

/**
 * The preview page's own requests: its files (everything in the page is inline or a data:/blob:
 * URL, html-document.ts; its own pages are under its prefix) and the origins the user allowed for
 * this preview in the Preview panel, nothing else. Fetch, XHR, sendBeacon, WebSocket, EventSource,
 * images, scripts, styles, fonts, media, frames, workers and form targets elsewhere are blocked
 * before the request is made, and the page's prelude reports each block to the panel
 * (securitypolicyviolation). 'self' is not used: the document's origin is opaque, so the preview's
 * own address is spelled out (a source with a path ending in "/" matches everything under it).
 */
function previewRequestPolicy(requestUrl: string, allowed: readonly string[]): string {
  const url = new URL(requestUrl);
  const session = url.pathname.slice(PREVIEW_PREFIX.length).split("/", 1)[0] ?? "";
  const own = `${url.origin}${PREVIEW_PREFIX}${session.replace(/[^A-Za-z0-9_-]/g, "")}/`;
  const sources = [own, ...allowed.filter((origin) => ORIGIN.test(origin))].join(" ");
  const local = `${sources} data: blob:`;
  return [
    `default-src ${local}`,
    `script-src ${local} 'unsafe-inline' 'unsafe-eval' 'wasm-unsafe-eval'`,
    `style-src ${local} 'unsafe-inline'`,
    `img-src ${local}`,
    `font-src ${local}`,
    `media-src ${local}`,
    `connect-src ${local}`,
    `frame-src ${local}`,
    `worker-src ${local}`,
    `manifest-src ${sources}`,
    `form-action ${sources}`,
    "object-src 'none'",
  ].join("; ");
}

function previewHeaders(requestUrl: string, allowed: readonly string[], extra: Record<string, string>): Record<string, string> {
  // Two policies in one header (a comma): both are enforced.
  return { ...PREVIEW_HEADERS, "Content-Security-Policy": `${PREVIEW_SANDBOX}, ${previewRequestPolicy(requestUrl, allowed)}`, ...extra };
}

const shellUrl = (file: string) => new URL(file, scope.location.origin).toString();

scope.addEventListener("install", (event) => {
  if (manifest.files.length === 0) return;
  // "no-store": past the browser's HTTP cache both ways. The page loads the same files meanwhile
  // (Monaco's workers, Python's start files); Chromium fails one of two requests that write the same
  // HTTP cache entry at once (net::ERR_CACHE_WRITE_FAILURE: a worker that does not start, a
  // "Failed to fetch"). The copy kept here is in the Cache Storage anyway. (The default mode shares
  // the entry instead, but then a page request waits behind the precache's, whose priority is
  // lower: the first terminal command came later when the two overlapped.)
  event.waitUntil(
    caches.open(CACHE).then((cache) => cache.addAll(manifest.files.map((file) => new Request(shellUrl(file), { cache: "no-store" })))),
  );
});

scope.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const ours = (await caches.keys()).filter((key) => key.startsWith(CACHE_PREFIX) && key !== CACHE);
      for (const key of ours.slice(0, Math.max(0, ours.length - (KEEP_CACHES - 1)))) await caches.delete(key);
      await scope.clients.claim();
    })(),
  );
});

scope.addEventListener("message", (event) => {
  if ((event.data as { type?: string } | null)?.type === "skip-waiting") void scope.skipWaiting();
});

scope.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== scope.location.origin || request.method !== "GET") return;
  if (url.pathname.startsWith(PREVIEW_PREFIX)) {
    event.respondWith(previewResponse(request));
    return;
  }
  if (manifest.files.length === 0) return;
  // The app is one page: every navigation to a path without a file extension gets index.html.
  const navigation = request.mode === "navigate" && !/\.[a-z0-9]+$/i.test(url.pathname);
  event.respondWith(fromShell(navigation ? shellUrl("index.html") : request.url, request));
});

async function fromShell(key: string, request: Request): Promise<Response> {
  const cache = await caches.open(CACHE);
  const cached = (await cache.match(key)) ?? (await caches.match(key));
  return cached ?? fetch(request);
}

interface PreviewAnswer {
  status: number;
  contentType: string;
  body: string | ArrayBuffer;
  location?: string;
  /** The origins the user allowed this preview's pages to reach (the Preview panel's "Allow"). */
  allow?: string[];
}

/** Asks every webcode tab; the one that holds the session answers, the others say "unknown". */
async function previewResponse(request: Request): Promise<Response> {
  const mode = request.mode === "navigate" ? "page" : "raw";
  const windows = await scope.clients.matchAll({ type: "window", includeUncontrolled: true });
  const answers = windows.map(
    (client) =>
      new Promise<PreviewAnswer | undefined>((resolve) => {
        const channel = new MessageChannel();
        const timer = setTimeout(() => resolve(undefined), PREVIEW_TIMEOUT_MS);
        channel.port1.onmessage = (event: MessageEvent<PreviewAnswer | { unknown: true }>) => {
          clearTimeout(timer);
          resolve("unknown" in event.data ? undefined : event.data);
        };
        client.postMessage({ type: "webcode-preview-request", url: request.url, mode }, [channel.port2]);
      }),
  );
  const answer = await firstDefined(answers);
  if (!answer) {
    const body =
      "<!doctype html><meta charset=utf-8><title>Preview closed</title><p style=\"font:14px system-ui;padding:16px\">This preview is not open any more: the webcode tab that served it was closed, reloaded or switched workspace. Open it again from webcode's Preview panel.</p>";
    return new Response(body, { status: 404, headers: previewHeaders(request.url, [], { "Content-Type": "text/html; charset=utf-8" }) });
  }
  const allowed = Array.isArray(answer.allow) ? answer.allow.filter((origin): origin is string => typeof origin === "string") : [];
  if (answer.location) return new Response(null, { status: answer.status, headers: previewHeaders(request.url, allowed, { Location: answer.location }) });
  return new Response(answer.body, { status: answer.status, headers: previewHeaders(request.url, allowed, { "Content-Type": answer.contentType }) });
}

function firstDefined<T>(promises: Array<Promise<T | undefined>>): Promise<T | undefined> {
  return new Promise((resolve) => {
    let pending = promises.length;
    if (pending === 0) resolve(undefined);
    for (const promise of promises) {
      void promise.then((value) => {
        pending--;
        if (value !== undefined) resolve(value);
        else if (pending === 0) resolve(undefined);
      });
    }
  });
}
