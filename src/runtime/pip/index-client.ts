// The package index client: a project's files from the Simple Repository API in its JSON form
// (PEP 691), and wheel downloads checked against the index's sha256. The page fetches them, so the
// index must answer cross-origin requests. Failures are told apart for the user: offline or
// refused by CORS (fetch rejects without a response), 404, other HTTP errors, an HTML-only index.
import { normalizeName } from "./requirement";
import { sha256Hex } from "../../base";

export const DEFAULT_INDEX = "https://pypi.org/simple/";
const SIMPLE_JSON = "application/vnd.pypi.simple.v1+json";

export type IndexFetch = (input: string, init?: RequestInit) => Promise<Response>;

export class PipError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PipError";
  }
}

export interface IndexFile {
  filename: string;
  url: string;
  sha256?: string;
  requiresPython?: string;
  yanked: boolean;
}

/** index-url from pip.conf texts (`[global]` or `[install]`), first one found wins. */
export function indexFromConfig(texts: Array<string | undefined>): string | undefined {
  for (const text of texts) {
    if (!text) continue;
    let section = "";
    for (const raw of text.split(/\r?\n/)) {
      const line = raw.trim();
      if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
      const header = /^\[(.+)\]$/.exec(line);
      if (header) {
        section = header[1]!.trim().toLowerCase();
        continue;
      }
      const match = /^index[-_]url\s*[=:]\s*(.+)$/i.exec(line);
      if (match && (section === "global" || section === "install")) return match[1]!.trim();
    }
  }
  return undefined;
}

export function withSlash(url: string): string {
  return url.endsWith("/") ? url : `${url}/`;
}

export class IndexClient {
  private readonly projects = new Map<string, Promise<IndexFile[]>>();

  constructor(
    readonly index: string,
    private readonly fetchImpl: IndexFetch,
    private readonly signal?: AbortSignal,
  ) {}

  /** A project's files, fetched once per command. */
  files(name: string): Promise<IndexFile[]> {
    const key = normalizeName(name);
    let pending = this.projects.get(key);
    if (!pending) {
      pending = this.fetchProject(name, key);
      this.projects.set(key, pending);
    }
    return pending;
  }

  private async fetchProject(name: string, key: string): Promise<IndexFile[]> {
    const url = `${withSlash(this.index)}${key}/`;
    const response = await this.get(url, { accept: `${SIMPLE_JSON}, application/json;q=0.9` }, name, true);
    const type = response.headers.get("content-type") ?? "";
    if (type.includes("html")) throw new PipError(`The index ${this.index} answered ${url} in HTML; this pip reads the JSON form of the Simple API (PEP 691), which PyPI and current indexes serve.`);
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      throw new PipError(`The index answered ${url} with something that is not JSON.`);
    }
    const files = (body as { files?: unknown }).files;
    if (!Array.isArray(files)) throw new PipError(`The index's answer for ${name} (${url}) has no "files" list.`);
    return files.flatMap((file: Record<string, unknown>): IndexFile[] => {
      if (typeof file.filename !== "string" || typeof file.url !== "string") return [];
      const hashes = (file.hashes ?? {}) as Record<string, unknown>;
      return [
        {
          filename: file.filename,
          url: new URL(file.url, url).href,
          sha256: typeof hashes.sha256 === "string" ? hashes.sha256.toLowerCase() : undefined,
          requiresPython: typeof file["requires-python"] === "string" ? file["requires-python"] : undefined,
          yanked: file.yanked !== undefined && file.yanked !== false,
        },
      ];
    });
  }

  /** A file's bytes, checked against the sha256 the index gave. */
  async download(file: IndexFile): Promise<Uint8Array> {
    const response = await this.get(file.url, {}, file.filename, false);
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (file.sha256) {
      const actual = await sha256Hex(bytes);
      if (actual !== file.sha256) {
        throw new PipError(
          `THESE PACKAGES DO NOT MATCH THE HASHES FROM THE INDEX: ${file.filename} should have sha256 ${file.sha256} but has ${actual}. The download is not what the index promised; nothing was installed.`,
        );
      }
    }
    return bytes;
  }

  private async get(url: string, headers: Record<string, string>, what: string, project: boolean): Promise<Response> {
    let response: Response;
    try {
      response = await this.fetchImpl(url, { headers, signal: this.signal });
    } catch (error) {
      if (this.signal?.aborted) throw error;
      throw new PipError(
        `Could not reach ${new URL(url).origin} for ${what}: the network is offline or the index refused a request from this page (CORS). Check the connection and the index-url of pip.conf or PIP_INDEX_URL.`,
      );
    }
    if (response.status === 404) {
      throw new PipError(project ? `No matching distribution found for ${what}: the index ${this.index} has no project by that name (404).` : `${what} is gone from the index (404 for ${url}).`);
    }
    if (!response.ok) throw new PipError(`The index answered ${response.status} ${response.statusText} for ${what} (${url}).`);
    return response;
  }
}
