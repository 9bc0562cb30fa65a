// The npm registry client: packuments (abbreviated form) and tarballs, fetched by the page, so the
// registry must answer cross-origin requests (the public one does). The registry comes from
// `registry=` in the project's or the workspace's .npmrc. Failures are told apart for the user:
// offline or refused by CORS (fetch rejects without a response), 404, other HTTP errors.
import type { Packument } from "./types";

export const DEFAULT_REGISTRY = "https://registry.npmjs.org/";
const CORGI = "application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8, */*";

export type RegistryFetch = (input: string, init?: RequestInit) => Promise<Response>;

export class NpmError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
    this.name = "NpmError";
  }
}

/** The `registry=` line of .npmrc texts, first one found wins (project before workspace root). */
export function registryFromNpmrc(texts: Array<string | undefined>): string {
  for (const text of texts) {
    if (!text) continue;
    for (const raw of text.split(/\r?\n/)) {
      const line = raw.trim();
      if (line.startsWith("#") || line.startsWith(";")) continue;
      const match = /^registry\s*=\s*(.+)$/.exec(line);
      if (match) return withSlash(match[1]!.trim().replace(/^["']|["']$/g, ""));
    }
  }
  return DEFAULT_REGISTRY;
}

function withSlash(url: string): string {
  return url.endsWith("/") ? url : `${url}/`;
}

export class RegistryClient {
  private readonly packuments = new Map<string, Promise<Packument>>();

  constructor(
    readonly registry: string,
    private readonly fetchImpl: RegistryFetch,
    private readonly signal?: AbortSignal,
  ) {}

  /** The packument of a package, fetched once per install. */
  packument(name: string): Promise<Packument> {
    let pending = this.packuments.get(name);
    if (!pending) {
      pending = this.fetchPackument(name);
      this.packuments.set(name, pending);
    }
    return pending;
  }

  private async fetchPackument(name: string): Promise<Packument> {
    // Scoped names keep their "@" and encode the slash, as npm does.
    const url = `${this.registry}${name.startsWith("@") ? `@${encodeURIComponent(name.slice(1))}` : encodeURIComponent(name)}`;
    const response = await this.get(url, { accept: CORGI }, `${name}`);
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      throw new NpmError(`The registry answered ${url} with something that is not JSON.`, "EINVALIDPACKUMENT");
    }
    if (!body || typeof body !== "object" || typeof (body as Packument).versions !== "object") {
      throw new NpmError(`The registry's answer for ${name} has no versions.`, "EINVALIDPACKUMENT");
    }
    const packument = body as Packument;
    packument["dist-tags"] ??= {};
    return packument;
  }

  /** A tarball's bytes. */
  async tarball(url: string, what: string): Promise<Uint8Array> {
    const response = await this.get(this.rewrite(url), {}, what);
    return new Uint8Array(await response.arrayBuffer());
  }

  /** Tarballs locked to the public registry come from the configured one, as npm's replace-registry-host does. */
  rewrite(url: string): string {
    if (this.registry !== DEFAULT_REGISTRY && url.startsWith(DEFAULT_REGISTRY)) return this.registry + url.slice(DEFAULT_REGISTRY.length);
    return url;
  }

  private async get(url: string, headers: Record<string, string>, what: string): Promise<Response> {
    let response: Response;
    try {
      response = await this.fetchImpl(url, { headers, signal: this.signal });
    } catch (error) {
      if (this.signal?.aborted) throw error;
      throw new NpmError(
        `Could not reach ${new URL(url).origin} for ${what}: the network is offline or the registry refused a request from this page (CORS). Check the connection and the registry= line of .npmrc.`,
        "ENETWORK",
      );
    }
    if (response.status === 404) throw new NpmError(`404 Not Found: ${what} is not in the registry ${this.registry}`, "E404");
    if (!response.ok) throw new NpmError(`The registry answered ${response.status} ${response.statusText} for ${what} (${url}).`, `E${response.status}`);
    return response;
  }
}
