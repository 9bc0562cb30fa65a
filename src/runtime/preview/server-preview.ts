// The Preview of a program's server (node's http.createServer on localhost:PORT): the page's
// requests go to the server through the port registry (sandbox/local-servers.ts). The previewed
// page is an opaque origin whose subresource requests do not reach the service worker (see
// docs/architecture.md "Preview and the service worker"), so, as for the built-in preview, an HTML
// page has its same-site scripts and stylesheets inlined, and the prelude routes its fetch() calls
// through the Preview panel to the server.
import { preludeScript } from "./prelude";
import type { PreviewResponder } from "./preview-hub";
import type { PreviewResponse } from "./preview-server";
import type { PreviewRequest } from "../types";

/** A request for a path of the server ("/api/hello?x=1"): a GET, or the page's own method, headers and body. */
export type ServerFetch = (path: string, request?: PreviewRequest) => Promise<Response>;

/** Headers the page's Response must not be given again (the body is already whole and decoded). */
const HOP_HEADERS = new Set(["content-type", "content-length", "content-encoding", "transfer-encoding", "connection", "keep-alive", "set-cookie"]);

/** The page's request as fetch() init for the program's server. */
export function requestInit(request: PreviewRequest | undefined): RequestInit | undefined {
  if (!request) return undefined;
  const body = request.body && request.method !== "GET" && request.method !== "HEAD" ? request.body : undefined;
  return { method: request.method, headers: request.headers, body: body as BodyInit | undefined };
}

/** A server's response as the Preview hands it to the page: status, type, body and its other headers. */
export async function previewReply(response: Response): Promise<PreviewResponse> {
  const headers = [...response.headers].filter(([name]) => !HOP_HEADERS.has(name.toLowerCase()));
  return {
    status: response.status,
    contentType: response.headers.get("content-type") ?? "application/octet-stream",
    body: new Uint8Array(await response.arrayBuffer()),
    location: response.headers.get("location") ?? undefined,
    headers,
  };
}

/** Subresources a page names at most that are inlined (a page with hundreds keeps the rest as links). */
const MAX_INLINED = 64;

export function serverResponder(fetchPath: ServerFetch, base: () => string): PreviewResponder {
  return async (path, mode, request) => {
    let response: Response;
    try {
      response = await fetchPath(path, request);
    } catch (error) {
      return { status: 502, contentType: "text/plain; charset=utf-8", body: `The server did not answer: ${error instanceof Error ? error.message : String(error)}\n` };
    }
    const reply = await previewReply(response);
    if (mode !== "page" || !/^text\/html\b/i.test(reply.contentType)) return reply;
    const html = new TextDecoder().decode(reply.body as Uint8Array);
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
