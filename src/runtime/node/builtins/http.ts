// node:http and node:https in the browser runtime: servers (createServer, listen) whose port the
// page learns, so that curl, the Preview and other programs reach them as localhost:PORT
// (docs/architecture.md "Servers"), and a client (request, get) for those local servers.
// Written here over readable-stream and events: the npm ports of Node's http (stream-http,
// http-browserify) are clients over XHR only, and no package offers Node's server objects apart
// from a socket; what a framework touches (Express, Koa, Fastify, Hono's adapter) is Node's
// documented surface of Server, IncomingMessage and ServerResponse, reproduced below.
import { Buffer } from "buffer/";
import events from "events/";
import stream from "readable-stream";
import type { HeaderList, HttpRequestMessage } from "../../sandbox/protocol";
import type { ServerBridge } from "../../sandbox/worker-kit";
import type { EventLoop } from "../event-loop";

// Node's table (lib/_http_server.js STATUS_CODES), kept as data here: the one npm package with it
// (statuses) differs in a few texts (e.g. 418) and is not a dependency.
export const STATUS_CODES: Record<number, string> = {
  100: "Continue", 101: "Switching Protocols", 102: "Processing", 103: "Early Hints",
  200: "OK", 201: "Created", 202: "Accepted", 203: "Non-Authoritative Information", 204: "No Content", 205: "Reset Content", 206: "Partial Content", 207: "Multi-Status", 208: "Already Reported", 226: "IM Used",
  300: "Multiple Choices", 301: "Moved Permanently", 302: "Found", 303: "See Other", 304: "Not Modified", 305: "Use Proxy", 307: "Temporary Redirect", 308: "Permanent Redirect",
  400: "Bad Request", 401: "Unauthorized", 402: "Payment Required", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed", 406: "Not Acceptable", 407: "Proxy Authentication Required", 408: "Request Timeout", 409: "Conflict", 410: "Gone", 411: "Length Required", 412: "Precondition Failed", 413: "Payload Too Large", 414: "URI Too Long", 415: "Unsupported Media Type", 416: "Range Not Satisfiable", 417: "Expectation Failed", 418: "I'm a Teapot", 421: "Misdirected Request", 422: "Unprocessable Entity", 423: "Locked", 424: "Failed Dependency", 425: "Too Early", 426: "Upgrade Required", 428: "Precondition Required", 429: "Too Many Requests", 431: "Request Header Fields Too Large", 451: "Unavailable For Legal Reasons",
  500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout", 505: "HTTP Version Not Supported", 506: "Variant Also Negotiates", 507: "Insufficient Storage", 508: "Loop Detected", 509: "Bandwidth Limit Exceeded", 510: "Not Extended", 511: "Network Authentication Required",
};

export const METHODS = ["ACL", "BIND", "CHECKOUT", "CONNECT", "COPY", "DELETE", "GET", "HEAD", "LINK", "LOCK", "M-SEARCH", "MERGE", "MKACTIVITY", "MKCALENDAR", "MKCOL", "MOVE", "NOTIFY", "OPTIONS", "PATCH", "POST", "PROPFIND", "PROPPATCH", "PURGE", "PUT", "QUERY", "REBIND", "REPORT", "SEARCH", "SOURCE", "SUBSCRIBE", "TRACE", "UNBIND", "UNLINK", "UNLOCK", "UNSUBSCRIBE"];

export interface HttpContext {
  loop: EventLoop;
  servers: ServerBridge;
}

type Listener = (...args: never[]) => unknown;

/** Node's error with a code (the message as Node words it). */
function codedError(code: string, message: string, Kind: ErrorConstructor | TypeErrorConstructor = Error): Error & { code: string } {
  return Object.assign(new Kind(message), { code });
}

/** What stands for the TCP socket: the fields frameworks read (remoteAddress for logs and req.ip). */
export class SocketStub extends events.EventEmitter {
  remoteAddress = "127.0.0.1";
  remotePort = 0;
  remoteFamily = "IPv4";
  localAddress = "127.0.0.1";
  encrypted = false;
  readable = true;
  writable = true;
  destroyed = false;
  constructor(readonly localPort: number) {
    super();
    this.remotePort = 40000 + Math.floor(Math.random() * 20000);
  }
  setTimeout(_ms: number, callback?: () => void): this {
    if (callback) this.once("timeout", callback);
    return this;
  }
  setNoDelay(): this {
    return this;
  }
  setKeepAlive(): this {
    return this;
  }
  ref(): this {
    return this;
  }
  unref(): this {
    return this;
  }
  address() {
    return { address: this.localAddress, family: "IPv4", port: this.localPort };
  }
  destroy(): this {
    this.destroyed = true;
    return this;
  }
  end(): this {
    return this;
  }
}

/** Node's IncomingMessage: the request as a readable stream of its body. */
export class IncomingMessage extends stream.Readable {
  method: string | undefined;
  url = "";
  statusCode: number | undefined;
  statusMessage: string | undefined;
  httpVersion = "1.1";
  httpVersionMajor = 1;
  httpVersionMinor = 1;
  headers: Record<string, string | string[]> = {};
  headersDistinct: Record<string, string[]> = {};
  rawHeaders: string[] = [];
  trailers: Record<string, string> = {};
  rawTrailers: string[] = [];
  complete = false;
  aborted = false;
  /** On a client's response: the request it answers. */
  req: unknown;
  readonly socket: SocketStub;

  constructor(socket: SocketStub) {
    super();
    this.socket = socket;
  }

  get connection(): SocketStub {
    return this.socket;
  }

  setTimeout(ms: number, callback?: () => void): this {
    this.socket.setTimeout(ms, callback);
    return this;
  }

  /** Headers as Node joins them: set-cookie as an array, a few kept first-only, the rest joined with ", ". */
  setHeaderList(list: HeaderList): void {
    for (const [name, value] of list) {
      this.rawHeaders.push(name, value);
      const key = name.toLowerCase();
      (this.headersDistinct[key] ??= []).push(value);
      const existing = this.headers[key];
      if (key === "set-cookie") this.headers[key] = [...((existing as string[] | undefined) ?? []), value];
      else if (existing === undefined) this.headers[key] = value;
      else if (!SINGLE_VALUE_HEADERS.has(key)) this.headers[key] = `${existing as string}${key === "cookie" ? "; " : ", "}${value}`;
    }
  }

  override _read(): void {
    // The body is pushed whole when the request arrives (the page has it complete).
  }
}

/** Headers Node keeps the first of when repeated (lib/_http_incoming.js matchKnownFields). */
const SINGLE_VALUE_HEADERS = new Set(["age", "authorization", "content-length", "content-type", "etag", "expires", "from", "host", "if-modified-since", "if-unmodified-since", "last-modified", "location", "max-forwards", "proxy-authorization", "referer", "retry-after", "server", "user-agent"]);

type HeaderValue = string | number | readonly string[];

/** Node's OutgoingMessage header store: names looked up case-insensitively, the caller's spelling kept for the wire. */
class HeaderStore {
  private readonly map = new Map<string, [name: string, value: HeaderValue]>();
  set(name: string, value: HeaderValue): void {
    if (typeof name !== "string" || !/^[\^_`a-zA-Z\-0-9!#$%&'*+.|~]+$/.test(name)) throw codedError("ERR_INVALID_HTTP_TOKEN", `Header name must be a valid HTTP token ["${String(name)}"]`, TypeError);
    if (value === undefined) throw codedError("ERR_HTTP_INVALID_HEADER_VALUE", `Invalid value "undefined" for header "${name}"`, TypeError);
    this.map.set(name.toLowerCase(), [name, value]);
  }
  append(name: string, value: HeaderValue): void {
    const existing = this.map.get(name.toLowerCase());
    if (!existing) return this.set(name, value);
    const values = ([] as string[]).concat(existing[1] as string[], value as string[]).map(String);
    this.map.set(name.toLowerCase(), [existing[0], values]);
  }
  get(name: string): HeaderValue | undefined {
    return this.map.get(String(name).toLowerCase())?.[1];
  }
  has(name: string): boolean {
    return this.map.has(String(name).toLowerCase());
  }
  delete(name: string): void {
    this.map.delete(String(name).toLowerCase());
  }
  names(): string[] {
    return [...this.map.keys()];
  }
  rawNames(): string[] {
    return [...this.map.values()].map(([name]) => name);
  }
  object(): Record<string, HeaderValue> {
    const out = Object.create(null) as Record<string, HeaderValue>;
    for (const [key, [, value]] of this.map) out[key] = value;
    return out;
  }
  list(): HeaderList {
    const out: HeaderList = [];
    for (const [name, value] of this.map.values()) {
      if (Array.isArray(value)) for (const item of value as readonly string[]) out.push([name, String(item)]);
      else out.push([name, String(value)]);
    }
    return out;
  }
}

type WriteCallback = (error?: Error | null) => void;

/** Node's ServerResponse: a writable stream whose first write sends the head; chunked when no content-length was set. */
export class ServerResponse extends stream.Writable {
  statusCode = 200;
  statusMessage: string | undefined = undefined;
  headersSent = false;
  sendDate = true;
  chunkedEncoding = false;
  useChunkedEncodingByDefault = true;
  shouldKeepAlive = true;
  readonly req: IncomingMessage;
  readonly socket: SocketStub;
  private readonly store = new HeaderStore();
  private readonly noBody: boolean;

  constructor(
    req: IncomingMessage,
    private readonly sendPart: (part: { kind: "head"; status: number; statusText: string; headers: HeaderList } | { kind: "body"; data: Uint8Array } | { kind: "end" }) => void,
  ) {
    super({ decodeStrings: true });
    this.req = req;
    this.socket = req.socket;
    this.noBody = req.method === "HEAD";
  }

  get connection(): SocketStub {
    return this.socket;
  }

  get finished(): boolean {
    return this.writableEnded;
  }

  setHeader(name: string, value: HeaderValue): this {
    if (this.headersSent) throw codedError("ERR_HTTP_HEADERS_SENT", "Cannot set headers after they are sent to the client");
    this.store.set(name, value);
    return this;
  }

  appendHeader(name: string, value: HeaderValue): this {
    if (this.headersSent) throw codedError("ERR_HTTP_HEADERS_SENT", "Cannot append headers after they are sent to the client");
    this.store.append(name, value);
    return this;
  }

  setHeaders(headers: Headers | Map<string, HeaderValue>): this {
    for (const [name, value] of headers) this.setHeader(name, value);
    return this;
  }

  getHeader(name: string): HeaderValue | undefined {
    return this.store.get(name);
  }

  getHeaders(): Record<string, HeaderValue> {
    return this.store.object();
  }

  getHeaderNames(): string[] {
    return this.store.names();
  }

  getRawHeaderNames(): string[] {
    return this.store.rawNames();
  }

  hasHeader(name: string): boolean {
    return this.store.has(name);
  }

  removeHeader(name: string): void {
    if (this.headersSent) throw codedError("ERR_HTTP_HEADERS_SENT", "Cannot remove headers after they are sent to the client");
    this.store.delete(name);
  }

  writeHead(statusCode: number, reason?: string | Record<string, HeaderValue> | HeaderValue[], headers?: Record<string, HeaderValue> | HeaderValue[]): this {
    if (this.headersSent) throw codedError("ERR_HTTP_HEADERS_SENT", "Cannot write headers after they are sent to the client");
    const code = Number(statusCode);
    if (!Number.isInteger(code) || code < 100 || code > 999) throw codedError("ERR_HTTP_INVALID_STATUS_CODE", `Invalid status code: ${String(statusCode)}`, RangeError);
    this.statusCode = code;
    if (typeof reason === "string") this.statusMessage = reason;
    else headers = reason;
    if (Array.isArray(headers)) {
      // A flat [name, value, name, value] list, as rawHeaders.
      for (let i = 0; i + 1 < headers.length; i += 2) this.store.append(String(headers[i]), headers[i + 1] as HeaderValue);
    } else if (headers) {
      for (const [name, value] of Object.entries(headers)) if (value !== undefined) this.store.set(name, value);
    }
    this.sendHead();
    return this;
  }

  flushHeaders(): void {
    if (!this.headersSent) this.sendHead();
  }

  writeContinue(): void {}
  writeProcessing(): void {}
  writeEarlyHints(): void {}
  addTrailers(): void {}
  assignSocket(): void {}
  detachSocket(): void {}

  setTimeout(ms: number, callback?: () => void): this {
    this.socket.setTimeout(ms, callback);
    return this;
  }

  /** The head goes out: Node's defaults added (Date, Connection, Keep-Alive, Transfer-Encoding when no length). */
  private sendHead(bodyLength?: number): void {
    if (this.headersSent) return;
    this.headersSent = true;
    const status = this.statusCode;
    const bodyless = status === 204 || status === 304 || (status >= 100 && status < 200);
    if (this.sendDate && !this.store.has("date")) this.store.set("Date", new Date().toUTCString());
    if (!this.store.has("connection")) this.store.set("Connection", "keep-alive");
    if (!this.store.has("keep-alive") && this.store.get("connection") === "keep-alive") this.store.set("Keep-Alive", "timeout=5");
    if (!bodyless && !this.store.has("content-length") && !this.store.has("transfer-encoding")) {
      if (bodyLength !== undefined) this.store.set("Content-Length", bodyLength);
      else {
        this.chunkedEncoding = true;
        this.store.set("Transfer-Encoding", "chunked");
      }
    }
    this.sendPart({ kind: "head", status, statusText: this.statusMessage ?? STATUS_CODES[status] ?? "unknown", headers: this.store.list() });
  }

  override _write(chunk: Uint8Array, _encoding: string, callback: WriteCallback): void {
    this.sendHead();
    if (!this.noBody && chunk.length > 0) this.sendPart({ kind: "body", data: new Uint8Array(chunk) });
    callback();
  }

  override _final(callback: WriteCallback): void {
    this.sendHead(0);
    this.sendPart({ kind: "end" });
    callback();
  }

  // end(data) before the head: Node sends that body with a Content-Length rather than chunked.
  override end(chunk?: unknown, encoding?: unknown, callback?: unknown): this {
    if (typeof chunk === "function") return super.end(chunk as () => void) as this;
    if (!this.headersSent && !this.writableEnded && chunk !== undefined && chunk !== null) {
      const bytes = typeof chunk === "string" ? Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8") : Buffer.from(chunk as Uint8Array);
      this.sendHead(bytes.length);
      return super.end(bytes, typeof encoding === "function" ? (encoding as () => void) : (callback as () => void)) as this;
    }
    return super.end(chunk as never, encoding as never, callback as never) as this;
  }
}

interface ListenOptions {
  port?: number | string;
  host?: string;
  backlog?: number;
}

/** Node's http.Server: listen() asks the page for the port; requests arrive from the page as messages. */
export class Server extends events.EventEmitter {
  listening = false;
  timeout = 0;
  keepAliveTimeout = 5000;
  headersTimeout = 60000;
  requestTimeout = 300000;
  maxHeadersCount: number | null = null;
  maxRequestsPerSocket = 0;
  private port: number | undefined;
  private host = "::";
  private readonly inFlight = new Map<number, { req: IncomingMessage; res: ServerResponse }>();

  constructor(
    private readonly context: HttpContext,
    requestListener?: (req: IncomingMessage, res: ServerResponse) => void,
  ) {
    super();
    if (requestListener) this.on("request", requestListener);
  }

  listen(...args: unknown[]): this {
    const callback = typeof args[args.length - 1] === "function" ? (args.pop() as () => void) : undefined;
    let port: unknown = args[0];
    let host = typeof args[1] === "string" ? args[1] : undefined;
    if (port !== null && typeof port === "object") {
      const options = port as ListenOptions & { path?: string };
      if (options.path !== undefined) throw codedError("ERR_WEBCODE_NO_PIPES", "listen on a socket path is not available in the browser runtime (only TCP ports, reached as localhost:PORT); WebContainer runs it");
      port = options.port;
      host = options.host ?? host;
    }
    if (typeof port === "string" && !/^\d+$/.test(port)) throw codedError("ERR_WEBCODE_NO_PIPES", `listen on "${port}" is not available in the browser runtime (only TCP ports, reached as localhost:PORT)`);
    const number = port === undefined || port === null ? 0 : Number(port);
    if (!Number.isInteger(number) || number < 0 || number > 65535) throw codedError("ERR_SOCKET_BAD_PORT", `options.port should be >= 0 and < 65536. Received ${String(port)}.`, RangeError);
    if (this.listening) throw codedError("ERR_SERVER_ALREADY_LISTEN", "Listen method has been called more than once without closing.");
    if (callback) this.once("listening", callback);
    if (host !== undefined) this.host = host === "localhost" ? "127.0.0.1" : host;
    // The server keeps the program running from now on, as a listening handle does in Node.
    this.context.loop.ref();
    this.listening = true;
    this.context.servers
      .listen(number, { request: (message) => this.context.loop.guard(() => this.handle(message)), abort: (id) => this.context.loop.guard(() => this.aborted(id)) })
      .then(
        (given) => {
          this.port = given;
          if (!this.listening) return this.context.servers.close(given);
          this.context.loop.guard(() => this.emit("listening"));
        },
        (error: unknown) => {
          this.listening = false;
          this.context.loop.guard(() => this.emit("error", error));
          this.context.loop.unref();
        },
      );
    return this;
  }

  address(): { address: string; family: string; port: number } | null {
    if (!this.listening || this.port === undefined) return null;
    return { address: this.host, family: this.host.includes(":") ? "IPv6" : "IPv4", port: this.port };
  }

  close(callback?: (error?: Error) => void): this {
    if (!this.listening) {
      const error = codedError("ERR_SERVER_NOT_RUNNING", "Server is not running.");
      if (callback) this.context.loop.nextTick(() => callback(error));
      return this;
    }
    this.listening = false;
    if (this.port !== undefined) this.context.servers.close(this.port);
    if (callback) this.once("close", callback);
    this.context.loop.nextTick(() => {
      this.emit("close");
      this.context.loop.unref();
    });
    return this;
  }

  closeAllConnections(): void {}
  closeIdleConnections(): void {}

  setTimeout(ms: number, callback?: () => void): this {
    this.timeout = ms;
    if (callback) this.on("timeout", callback);
    return this;
  }

  ref(): this {
    return this;
  }

  unref(): this {
    return this;
  }

  private handle(message: HttpRequestMessage): void {
    const upgrade = message.headers.find(([name]) => name.toLowerCase() === "upgrade")?.[1];
    if (upgrade !== undefined && this.listenerCount("upgrade") > 0) {
      // The page has no socket to hand over: a WebSocket (or other upgrade) is refused in words.
      const body = new TextEncoder().encode(`${upgrade} upgrades are not available in the browser runtime's servers (requests reach them as messages, not sockets); WebContainer runs them.\n`);
      this.context.servers.respond({ type: "http-head", id: message.id, status: 501, statusText: "Not Implemented", headers: [["Content-Type", "text/plain; charset=utf-8"], ["Content-Length", String(body.length)]] });
      this.context.servers.respond({ type: "http-body", id: message.id, data: body });
      this.context.servers.respond({ type: "http-end", id: message.id });
      return;
    }
    const socket = new SocketStub(this.port ?? 0);
    const req = new IncomingMessage(socket);
    req.method = message.method;
    req.url = message.url;
    req.setHeaderList(message.headers);
    const id = message.id;
    const res = new ServerResponse(req, (part) => {
      if (part.kind === "head") this.context.servers.respond({ type: "http-head", id, status: part.status, statusText: part.statusText, headers: part.headers });
      else if (part.kind === "body") this.context.servers.respond({ type: "http-body", id, data: part.data });
      else {
        this.inFlight.delete(id);
        this.context.servers.respond({ type: "http-end", id });
      }
    });
    res.on("finish", () => {
      req.complete = true;
    });
    this.inFlight.set(id, { req, res });
    if (message.body && message.body.length > 0) req.push(Buffer.from(message.body));
    req.push(null);
    req.complete = true;
    this.emit("connection", socket);
    this.emit("request", req, res);
  }

  private aborted(id: number): void {
    const flight = this.inFlight.get(id);
    if (!flight) return;
    this.inFlight.delete(id);
    flight.req.aborted = true;
    flight.req.emit("aborted");
    flight.req.emit("close");
    flight.res.destroy();
    flight.req.socket.destroyed = true;
    flight.req.socket.emit("close", false);
  }
}

/** The node:http module (node:https is the same: the page serves it as plain http on its port). */
export function createHttp(context: HttpContext, client: { request: (...args: unknown[]) => unknown; ClientRequest: unknown }) {
  const createServer = (options?: unknown, listener?: (req: IncomingMessage, res: ServerResponse) => void) =>
    new Server(context, typeof options === "function" ? (options as typeof listener) : listener);
  const Agent = class Agent extends events.EventEmitter {
    constructor(readonly options: Record<string, unknown> = {}) {
      super();
    }
    destroy(): void {}
  };
  const request = client.request;
  const get = (...args: unknown[]) => {
    const req = request(...args) as { end(): void };
    req.end();
    return req;
  };
  return {
    STATUS_CODES,
    METHODS,
    Server,
    IncomingMessage,
    ServerResponse,
    OutgoingMessage: stream.Writable,
    ClientRequest: client.ClientRequest,
    Agent,
    globalAgent: new Agent(),
    createServer,
    request,
    get,
    maxHeaderSize: 16384,
    validateHeaderName: (name: string) => new HeaderStore().set(name, ""),
    validateHeaderValue: (name: string, value: unknown) => {
      if (value === undefined) throw codedError("ERR_HTTP_INVALID_HEADER_VALUE", `Invalid value "undefined" for header "${name}"`, TypeError);
    },
    setMaxIdleHTTPParsers: () => undefined,
  };
}

export type { Listener };
