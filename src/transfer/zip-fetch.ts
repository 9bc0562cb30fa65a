// Downloads a zip for `#import=<url>`: only http(s), no credentials, the size capped by headers and
// by a running count while streaming. The page's fetch is used unless one is injected (tests).
import { abortError, formatBytes, isAbortError } from "../base";
import { quoteName } from "./import-entries";
import { findTransferFragment } from "./transfer-fragment";
import { ImportError, MAX_IMPORT_BYTES } from "./zip-limits";

export interface FetchZipOptions {
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
  signal?: AbortSignal;
  /** Bytes received so far, and the total when the server says it. */
  onProgress?: (received: number, total: number | undefined) => void;
  maxBytes?: number;
}

/** The repository in a `#github=owner/repo@ref:path` fragment, unless a `share` or `import` key comes first. */
export function findGitHubSpec(href: string): string | undefined {
  const found = findTransferFragment(href);
  return found?.kind === "github" ? found.spec : undefined;
}

/** The URL in a `#import=<url>` fragment (URL-encoded or not), unless a `share` key comes first. */
export function findImportUrl(href: string): string | undefined {
  const found = findTransferFragment(href);
  return found?.kind === "import" ? found.url : undefined;
}

const failed = (message: string, cause?: unknown) => new ImportError("download-failed", message, { cause });

/**
 * Checks a link before anything else happens (no request, no dialog): only absolute http(s) URLs
 * can be imported. Returns the parsed URL; throws ImportError "download-failed" otherwise.
 */
export function checkImportUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw failed(`${quoteName(url)} is not a valid link. Check the #import= part of the address.`);
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") {
    throw failed(`Only http and https links can be imported, not ${quoteName(parsed.protocol)}. Download the zip and use Import zip instead.`);
  }
  return parsed;
}

export async function fetchZip(url: string, options: FetchZipOptions = {}): Promise<Uint8Array> {
  const maxBytes = options.maxBytes ?? MAX_IMPORT_BYTES;
  const parsed = checkImportUrl(url);
  const doFetch = options.fetch ?? ((input: string, init: RequestInit) => fetch(input, init));
  let response: Response;
  try {
    response = await doFetch(parsed.href, { mode: "cors", credentials: "omit", redirect: "follow", ...(options.signal ? { signal: options.signal } : {}) });
  } catch (error) {
    if (isAbortError(error)) throw abortError("The download was cancelled.");
    throw failed(
      `The zip at ${parsed.host} could not be downloaded: the server does not allow downloads from other sites (CORS), or the network is down. Download it yourself and use Import zip.`,
      error,
    );
  }
  if (!response.ok) throw failed(`The server at ${parsed.host} answered ${response.status} ${response.statusText}. Check the link, or download the zip and use Import zip.`);
  const declared = Number(response.headers.get("content-length") ?? NaN);
  const total = Number.isFinite(declared) && declared >= 0 ? declared : undefined;
  const tooBig = () => failed(`This download is larger than ${formatBytes(maxBytes)}, more than webcode imports. Import a smaller part of the project.`);
  if (total !== undefined && total > maxBytes) throw tooBig();
  if (!response.body) {
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (bytes.length > maxBytes) throw tooBig();
    options.onProgress?.(bytes.length, total);
    return bytes;
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      received += value.length;
      if (received > maxBytes) throw tooBig();
      chunks.push(value);
      options.onProgress?.(received, total);
    }
  } catch (error) {
    await reader.cancel().catch(() => undefined);
    if (error instanceof ImportError) throw error;
    if (isAbortError(error) || options.signal?.aborted) throw abortError("The download was cancelled.");
    throw failed(`The download from ${parsed.host} broke off. Try again.`, error);
  }
  const out = new Uint8Array(received);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/**
 * The address without `share=` / `import=` / `github=` data in its fragment, for history.replaceState once a
 * link has been loaded (so a reload or a copied address does not carry the data again).
 */
export function withoutTransferFragment(href: string): string {
  const hash = href.indexOf("#");
  if (hash < 0) return href;
  const kept = href
    .slice(hash + 1)
    .split("&")
    .filter((param) => param !== "" && !/^(?:share|import|github)=/.test(param));
  return kept.length ? `${href.slice(0, hash)}#${kept.join("&")}` : href.slice(0, hash);
}
