// http.request and http.get in the browser runtime: requests to the servers of this tab
// (localhost:PORT: this program's own, or another run's through the page's port registry,
// local-servers.ts). Other hosts are refused with one line (use fetch(), or WebContainer): the
// page's egress gate, not this worker, decides what leaves the tab. Node's ClientRequest surface
// over readable-stream, as http.ts explains.
import { Buffer } from "buffer/";
import stream from "readable-stream";
import type { HeaderList, HttpResponsePart } from "../../sandbox/protocol";
import { IncomingMessage, SocketStub, type HttpContext } from "./http";

interface RequestOptions {
  protocol?: string;
  host?: string;
  hostname?: string;
  port?: number | string;
  path?: string;
  method?: string;
  headers?: Record<string, string | number | string[]> | string[];
  signal?: AbortSignal;
  timeout?: number;
  auth?: string;
}

type ResponseCallback = (response: IncomingMessage) => void;

/** Node's ClientRequest: the body is gathered as it is written and sent at end(). */
export class ClientRequest extends stream.Writable {
  readonly method: string;
  readonly path: string;
  readonly host: string;
  readonly protocol: string;
  aborted = false;
  reusedSocket = false;
  readonly socket: SocketStub;
  private readonly headerMap = new Map<string, [string, string | string[]]>();
  private readonly chunks: Uint8Array[] = [];
  private cancel: (() => void) | undefined;
  private readonly url: URL;

  constructor(
    private readonly context: HttpContext,
    url: URL,
    options: RequestOptions,
    callback?: ResponseCallback,
  ) {
    // Not destroyed when the body is sent (the default): the response still has to come.
    super({ decodeStrings: true, autoDestroy: false });
    this.url = url;
    this.method = (options.method ?? "GET").toUpperCase();
    this.path = url.pathname + url.search;
    this.host = url.hostname;
    this.protocol = url.protocol;
    this.socket = new SocketStub(Number(url.port) || 80);
    const headers = options.headers;
    if (Array.isArray(headers)) for (let i = 0; i + 1 < headers.length; i += 2) this.setHeader(headers[i]!, headers[i + 1]!);
    else if (headers) for (const [name, value] of Object.entries(headers)) if (value !== undefined) this.setHeader(name, value as string);
    if (options.auth && !this.hasHeader("authorization")) this.setHeader("Authorization", `Basic ${Buffer.from(options.auth).toString("base64")}`);
    if (callback) this.once("response", callback);
    options.signal?.addEventListener("abort", () => this.destroy(Object.assign(new Error("The operation was aborted"), { name: "AbortError", code: "ABORT_ERR" })), { once: true });
    // Held while the request is in flight, as Node's socket is.
    context.loop.ref();
    this.once("close", () => context.loop.unref());
  }

  setHeader(name: string, value: string | number | string[]): this {
    this.headerMap.set(name.toLowerCase(), [name, Array.isArray(value) ? value.map(String) : String(value)]);
    return this;
  }
  getHeader(name: string): string | string[] | undefined {
    return this.headerMap.get(name.toLowerCase())?.[1];
  }
  hasHeader(name: string): boolean {
    return this.headerMap.has(name.toLowerCase());
  }
  removeHeader(name: string): void {
    this.headerMap.delete(name.toLowerCase());
  }
  getHeaderNames(): string[] {
    return [...this.headerMap.keys()];
  }
  setTimeout(_ms: number, callback?: () => void): this {
    if (callback) this.once("timeout", callback);
    return this;
  }
  setNoDelay(): void {}
  setSocketKeepAlive(): void {}
  flushHeaders(): void {}
  abort(): void {
    this.aborted = true;
    this.destroy();
  }

  override _write(chunk: Uint8Array, _encoding: string, callback: (error?: Error | null) => void): void {
    this.chunks.push(new Uint8Array(chunk));
    callback();
  }

  override _final(callback: (error?: Error | null) => void): void {
    callback();
    const body = this.chunks.length > 0 ? new Uint8Array(Buffer.concat(this.chunks)) : null;
    const headers: HeaderList = [];
    if (!this.hasHeader("host")) headers.push(["Host", this.url.host]);
    for (const [name, value] of this.headerMap.values()) for (const item of ([] as string[]).concat(value)) headers.push([name, item]);
    if (body && !this.hasHeader("content-length")) headers.push(["Content-Length", String(body.length)]);
    let response: IncomingMessage | undefined;
    this.cancel = this.context.servers.fetch({ url: this.url.href, method: this.method, headers, body }, (part: HttpResponsePart) =>
      this.context.loop.guard(() => {
        if (this.destroyed && part.type !== "http-error") return;
        if (part.type === "http-head") {
          response = new IncomingMessage(this.socket);
          response.statusCode = part.status;
          response.statusMessage = part.statusText;
          response.setHeaderList(part.headers);
          response.req = this;
          this.emit("response", response);
          // Node drops the body of a response nobody listens to, so the program still ends.
          if (this.listenerCount("response") === 0) response.resume();
        } else if (part.type === "http-body") {
          response?.push(Buffer.from(part.data));
        } else if (part.type === "http-end") {
          if (response) {
            response.complete = true;
            response.push(null);
          }
          this.cancel = undefined;
          this.destroy();
        } else {
          this.cancel = undefined;
          const error = connectionError(part.message, this.url);
          if (response) response.destroy(error);
          else this.destroy(error);
        }
      }),
    );
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.cancel?.();
    this.cancel = undefined;
    callback(error);
  }
}

/** The message a refused connection gets in Node, with its code. */
function connectionError(message: string, url: URL): Error {
  const refused = /ECONNREFUSED/.test(message);
  const port = Number(url.port) || 80;
  if (refused) return Object.assign(new Error(`connect ECONNREFUSED 127.0.0.1:${port}`), { code: "ECONNREFUSED", errno: -111, syscall: "connect", address: "127.0.0.1", port });
  return Object.assign(new Error(message), { code: /socket hang up/.test(message) ? "ECONNRESET" : "ERR_WEBCODE_HTTP" });
}

/** request(url[, options][, callback]) or request(options[, callback]), as Node takes them. */
export function createHttpClient(context: HttpContext, defaultProtocol: "http:" | "https:") {
  const request = (...args: unknown[]): ClientRequest => {
    const callback = typeof args[args.length - 1] === "function" ? (args.pop() as ResponseCallback) : undefined;
    let options: RequestOptions = {};
    let url: URL;
    if (typeof args[0] === "string" || args[0] instanceof URL) {
      url = new URL(String(args[0]));
      options = (args[1] as RequestOptions | undefined) ?? {};
    } else {
      options = (args[0] as RequestOptions | undefined) ?? {};
      const protocol = options.protocol ?? defaultProtocol;
      const host = options.hostname ?? options.host?.replace(/:\d+$/, "") ?? "localhost";
      const port = options.port ?? (options.host?.match(/:(\d+)$/)?.[1]);
      url = new URL(`${protocol}//${host.includes(":") ? `[${host}]` : host}${port !== undefined ? `:${port}` : ""}${options.path ?? "/"}`);
    }
    if (options.hostname || options.port !== undefined || options.path) {
      if (options.hostname) url.hostname = options.hostname;
      if (options.port !== undefined) url.port = String(options.port);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw Object.assign(new TypeError(`Protocol "${url.protocol}" not supported. Expected "${defaultProtocol}"`), { code: "ERR_INVALID_PROTOCOL" });
    }
    return new ClientRequest(context, url, options, callback);
  };
  return { request, ClientRequest };
}
