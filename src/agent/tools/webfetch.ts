// The webfetch tool: fetches a URL with the browser's fetch (CORS permitting), within a size cap and
// a timeout, and turns HTML into markdown or text. The fetch function is injected (tests use a fake).
import { z } from "zod";
import { concatBytes, isAbortError, toBase64 } from "../../base";
import description from "../../../prompts/tools/webfetch.md?raw";
import { htmlToMarkdown, htmlToText } from "./html-to-markdown";
import type { ToolDefinition } from "./tool";

/** Responses larger than this are refused. */
export const WEBFETCH_MAX_BYTES = 5 * 1024 * 1024;
export const WEBFETCH_DEFAULT_TIMEOUT_S = 30;
export const WEBFETCH_MAX_TIMEOUT_S = 120;

const parameters = z.object({
  url: z.string(),
  format: z.enum(["markdown", "text", "html"]).default("markdown"),
  timeout: z.number().positive().optional(),
});

export type FetchFunction = (input: string, init?: RequestInit) => Promise<Response>;

const ACCEPT: Record<string, string> = {
  markdown: "text/markdown;q=1.0, text/html;q=0.9, text/plain;q=0.8, */*;q=0.1",
  text: "text/plain;q=1.0, text/html;q=0.9, */*;q=0.1",
  html: "text/html;q=1.0, application/xhtml+xml;q=0.9, */*;q=0.1",
};

/** Browsers block http:// requests from an https:// page, so remote http URLs are upgraded. */
export function normalizeUrl(input: string): URL {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw new Error(`"${input}" is not a valid URL. Give a full URL starting with https://.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`Only http:// and https:// URLs can be fetched, not ${url.protocol}.`);
  const local = url.hostname === "localhost" || url.hostname === "127.0.0.1" || url.hostname === "[::1]";
  if (url.protocol === "http:" && !local) url.protocol = "https:";
  return url;
}

function corsMessage(url: string): string {
  return (
    `Could not fetch ${url}: the site does not allow browser requests (CORS), or it could not be reached. ` +
    "webcode fetches from inside the browser tab, so only sites that allow cross-origin requests can be read. " +
    "Try another source for the same content (such as raw.githubusercontent.com for files on GitHub, or the project's documentation site), or ask the user to paste it."
  );
}

async function readCapped(response: Response, signal: AbortSignal): Promise<Uint8Array> {
  const declared = Number(response.headers.get("content-length") ?? "");
  if (Number.isFinite(declared) && declared > WEBFETCH_MAX_BYTES) {
    throw new Error(`The response is too large (${declared} bytes; the limit is ${WEBFETCH_MAX_BYTES / 1024 / 1024} MB).`);
  }
  if (!response.body) return new Uint8Array(await response.arrayBuffer());
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    if (signal.aborted) {
      await reader.cancel().catch(() => undefined);
      throw signal.reason instanceof Error ? signal.reason : new Error("aborted");
    }
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > WEBFETCH_MAX_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw new Error(`The response is too large (over ${WEBFETCH_MAX_BYTES / 1024 / 1024} MB).`);
    }
    chunks.push(value);
  }
  return concatBytes(chunks);
}

function decode(bytes: Uint8Array, contentType: string): string {
  const charset = /charset=([^;]+)/i.exec(contentType)?.[1]?.trim().replace(/^"|"$/g, "") ?? "utf-8";
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    return new TextDecoder().decode(bytes);
  }
}

/** The webfetch tool over `fetch` (default: the global fetch of the page or Node, looked up per call). */
export function createWebfetchTool(options: { fetch?: FetchFunction } = {}): ToolDefinition<typeof parameters> {
  return {
    id: "webfetch",
    description,
    parameters,
    async execute(args, context) {
      const url = normalizeUrl(args.url);
      const timeoutS = Math.min(args.timeout ?? WEBFETCH_DEFAULT_TIMEOUT_S, WEBFETCH_MAX_TIMEOUT_S);
      await context.ask({ permission: "webfetch", patterns: [url.href], always: [`${url.origin}/*`], metadata: { url: url.href, format: args.format } });
      const fetchFn = options.fetch ?? ((input: string, init?: RequestInit) => globalThis.fetch(input, init));
      const timeout = new AbortController();
      const timer = setTimeout(() => timeout.abort(new Error("timeout")), timeoutS * 1000);
      const signal = AbortSignal.any([context.abort, timeout.signal]);
      let response: Response;
      let bytes: Uint8Array;
      try {
        response = await fetchFn(url.href, { signal, headers: { Accept: ACCEPT[args.format]! }, redirect: "follow" });
        if (!response.ok) {
          throw new Error(`Fetching ${url.href} failed with HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""}.`);
        }
        bytes = await readCapped(response, signal);
      } catch (error) {
        if (timeout.signal.aborted && !context.abort.aborted) throw new Error(`Fetching ${url.href} timed out after ${timeoutS} s.`);
        if (context.abort.aborted || isAbortError(error)) throw error;
        if (error instanceof TypeError) throw new Error(corsMessage(url.href), { cause: error });
        throw error;
      } finally {
        clearTimeout(timer);
      }

      const contentType = response.headers.get("content-type") ?? "";
      const mime = contentType.split(";")[0]!.trim().toLowerCase();
      const title = `${url.href} (${mime || "unknown type"})`;
      if (mime.startsWith("image/") && mime !== "image/svg+xml") {
        if (!context.model.supportsImages) throw new Error(`${url.href} is an image (${mime}), and the current model cannot view images.`);
        return {
          title,
          output: "Image fetched successfully.",
          metadata: { url: url.href, mime, bytes: bytes.length },
          attachments: [{ mime, filename: url.pathname.split("/").pop() || "image", url: `data:${mime};base64,${toBase64(bytes)}` }],
        };
      }
      const textual = mime === "" || mime.startsWith("text/") || /json|xml|javascript|yaml|toml|csv/.test(mime);
      if (!textual) throw new Error(`${url.href} returned ${mime} content, which cannot be shown as text.`);
      const text = decode(bytes, contentType);
      const isHtml = mime === "text/html" || mime === "application/xhtml+xml" || (mime === "" && /^\s*<(!doctype html|html)/i.test(text));
      let output = text;
      if (isHtml && args.format === "markdown") output = htmlToMarkdown(text, { baseUrl: response.url || url.href });
      else if (isHtml && args.format === "text") output = htmlToText(text);
      return { title, output, metadata: { url: url.href, mime, bytes: bytes.length, format: args.format } };
    },
  };
}
