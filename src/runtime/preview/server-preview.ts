// The Preview of a program's server (node's http.createServer on localhost:PORT): the page's
// requests go to the server through the port registry (sandbox/local-servers.ts). The previewed
// page is an opaque origin whose subresource requests do not reach the service worker (see
// docs/architecture.md "Preview and the service worker"), so, as for the built-in preview, an HTML
// page has its same-site scripts and stylesheets inlined, and the prelude routes its fetch() calls
// through the Preview panel to the server.
import { preludeScript } from "./prelude";
import type { PreviewResponder } from "./preview-hub";
import type { PreviewResponse } from "./preview-server";

/** A GET for a path of the server ("/api/hello?x=1"). */
export type ServerFetch = (path: string) => Promise<Response>;

/** Subresources a page names at most that are inlined (a page with hundreds keeps the rest as links). */
const MAX_INLINED = 64;

export function serverResponder(fetchPath: ServerFetch, base: () => string): PreviewResponder {
  return async (path, mode) => {
    let response: Response;
    try {
      response = await fetchPath(path);
    } catch (error) {
      return { status: 502, contentType: "text/plain; charset=utf-8", body: `The server did not answer: ${error instanceof Error ? error.message : String(error)}\n` };
    }
    const contentType = response.headers.get("content-type") ?? "application/octet-stream";
    const location = response.headers.get("location") ?? undefined;
    const bytes = new Uint8Array(await response.arrayBuffer());
    const reply: PreviewResponse = { status: response.status, contentType, body: bytes, location };
    if (mode !== "page" || !/^text\/html\b/i.test(contentType)) return reply;
    const html = new TextDecoder().decode(bytes);
    return { ...reply, body: await servedPage(html, path, base(), fetchPath) };
  };
}

/** The page with its same-site <script src> and <link rel=stylesheet> inlined and the prelude first in <head>. */
async function servedPage(html: string, pagePath: string, base: string, fetchPath: ServerFetch): Promise<string> {
  const pageUrl = new URL(pagePath.replace(/^\//, ""), base);
  /** The server path a reference names, when it is the server's own (relative, or absolute on the site). */
  const serverPath = (reference: string): string | undefined => {
    if (/^(?:[a-z][a-z0-9+.-]*:|\/\/)/i.test(reference)) return undefined;
    const resolved = reference.startsWith("/") ? new URL(reference.replace(/^\//, ""), base) : new URL(reference, pageUrl);
    if (!resolved.href.startsWith(base)) return undefined;
    return `/${resolved.href.slice(base.length).split("#")[0]}`;
  };
  const text = async (reference: string): Promise<string | undefined> => {
    const path = serverPath(reference);
    if (path === undefined) return undefined;
    try {
      const response = await fetchPath(path);
      return response.ok ? await response.text() : undefined;
    } catch {
      return undefined;
    }
  };
  const tags = [...html.matchAll(/<script\b([^>]*?)\bsrc\s*=\s*["']([^"']+)["']([^>]*)>\s*<\/script>|<link\b[^>]*?\brel\s*=\s*["']?stylesheet["']?[^>]*>/gi)].slice(0, MAX_INLINED);
  const replacements = await Promise.all(
    tags.map(async (match) => {
      if (match[2] !== undefined) {
        const code = await text(match[2]);
        if (code === undefined) return match[0];
        return `<script${`${match[1]}${match[3]}`.trimEnd()}>${code.replace(/<\/script/gi, "<\\/script")}</script>`;
      }
      const href = /\bhref\s*=\s*["']([^"']+)["']/i.exec(match[0])?.[1];
      const css = href === undefined ? undefined : await text(href);
      return css === undefined ? match[0] : `<style>${css.replace(/<\/style/gi, "<\\/style")}</style>`;
    }),
  );
  let out = "";
  let at = 0;
  tags.forEach((match, i) => {
    out += html.slice(at, match.index) + replacements[i];
    at = match.index! + match[0].length;
  });
  out += html.slice(at);
  const prelude = `<script>${preludeScript({ base, root: "" })}</script>`;
  const head = /<head\b[^>]*>/i.exec(out);
  if (head) return out.slice(0, head.index + head[0].length) + prelude + out.slice(head.index + head[0].length);
  return prelude + out;
}
