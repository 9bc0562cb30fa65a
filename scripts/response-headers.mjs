// The headers every response of webcode's own servers carries: the built-app server
// (scripts/serve.mjs, what `npm start` runs) and the Vite dev and preview servers (vite.config.ts).

/** Cross-origin isolation, which WebContainer needs (SharedArrayBuffer). */
export const ISOLATION_HEADERS = {
  "Cross-Origin-Opener-Policy": "same-origin",
  // credentialless, not require-corp: cross-origin no-cors requests still load (without cookies), so
  // "Test connection" can probe a provider that refuses CORS and report it as such instead of "down".
  "Cross-Origin-Embedder-Policy": "credentialless",
  // Nothing of the app is meant to be embedded by other sites.
  "Cross-Origin-Resource-Policy": "same-origin",
};

/**
 * No other site may frame the app (clickjacking the permission cards) and no response is sniffed
 * into another type. frame-ancestors only works as a header, not in the page's <meta> policy;
 * X-Frame-Options covers browsers that ignore it.
 * Referrer: strict-origin-when-cross-origin, not no-referrer. StackBlitz checks the WebContainer API
 * key against the domain its frame is loaded from, which it learns from the Referer: with
 * no-referrer a licensed deployment could be refused. Cross-origin requests carry the origin only
 * (never the path or query; a #share=/#import= fragment is never sent at all), and nothing over
 * plain HTTP from an HTTPS page.
 */
export const SECURITY_HEADERS = {
  "Content-Security-Policy": "frame-ancestors 'none'",
  "X-Frame-Options": "DENY",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
};

/** Both sets: what every response sends. */
export const RESPONSE_HEADERS = { ...ISOLATION_HEADERS, ...SECURITY_HEADERS };

/**
 * The program sandbox page (public/sandbox.html, docs/architecture.md "Isolated execution host")
 * is the one page the app itself frames, in a sandboxed iframe without allow-same-origin: it may be
 * framed by this origin only. Everything else keeps `frame-ancestors 'none'`.
 */
export const SANDBOX_PAGE_PATH = "/sandbox.html";

/** The headers of the response for a URL path. */
export function responseHeadersFor(urlPath) {
  if (urlPath !== SANDBOX_PAGE_PATH) return RESPONSE_HEADERS;
  return { ...RESPONSE_HEADERS, "Content-Security-Policy": "frame-ancestors 'self'", "X-Frame-Options": "SAMEORIGIN" };
}

/**
 * The headers every path gets alike (the framing headers, which differ for the sandbox page, left
 * out). For servers whose header option cannot vary by path, such as Vite's `server.headers` and
 * `preview.headers`, which it applies after the middlewares and so would overwrite the sandbox
 * page's `frame-ancestors 'self'`: node and python3 then hung at "Loading…" under `npm run dev`.
 */
export const SHARED_HEADERS = Object.fromEntries(
  Object.entries(RESPONSE_HEADERS).filter(([name, value]) => responseHeadersFor(SANDBOX_PAGE_PATH)[name] === value),
);
