// The built-ins that need an operating system (sockets, a debugger, a terminal REPL; wasi is
// builtins/wasi.ts now): each loads, with its constants and the calls that need nothing, and the rest throw the one
// line naming WebContainer when called. node:sqlite is not among them: Node 20 (and 22.12 without
// a flag) has none, so it stays unknown.
import events from "events/";
import { unsupportedModule } from "../unsupported";

export function createCluster(): Record<string, unknown> {
  const cluster = Object.assign(new events(), unsupportedModule("cluster", { functions: ["fork", "disconnect", "setupPrimary", "setupMaster"], classes: ["Worker"] }));
  return Object.assign(cluster, { isWorker: false, isMaster: true, isPrimary: true, workers: {}, settings: {}, SCHED_NONE: 1, SCHED_RR: 2, schedulingPolicy: 2 });
}

export function createDgram(): Record<string, unknown> {
  return unsupportedModule("dgram", { functions: ["createSocket"], classes: ["Socket"] });
}

export function createTls(): Record<string, unknown> {
  return unsupportedModule("tls", { functions: ["connect", "createServer", "createSecureContext", "createSecurePair", "checkServerIdentity"], classes: ["SecureContext", "TLSSocket", "Server"] }, {
    CLIENT_RENEG_LIMIT: 3,
    CLIENT_RENEG_WINDOW: 600,
    DEFAULT_CIPHERS: "TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256:TLS_AES_128_GCM_SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-AES256-GCM-SHA384:DHE-RSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-SHA256:DHE-RSA-AES128-SHA256:ECDHE-RSA-AES256-SHA384:DHE-RSA-AES256-SHA384:ECDHE-RSA-AES256-SHA256:DHE-RSA-AES256-SHA256:HIGH:!aNULL:!eNULL:!EXPORT:!DES:!RC4:!MD5:!PSK:!SRP:!CAMELLIA",
    DEFAULT_ECDH_CURVE: "auto",
    DEFAULT_MIN_VERSION: "TLSv1.2",
    DEFAULT_MAX_VERSION: "TLSv1.3",
    getCiphers: () => ["aes128-gcm-sha256", "aes128-sha", "aes256-gcm-sha384", "aes256-sha", "tls_aes_128_gcm_sha256", "tls_aes_256_gcm_sha384", "tls_chacha20_poly1305_sha256"],
    rootCertificates: [],
    convertALPNProtocols: (protocols: string[], out: { ALPNProtocols?: Uint8Array }) => {
      const bytes: number[] = [];
      for (const protocol of protocols) bytes.push(protocol.length, ...new TextEncoder().encode(protocol));
      out.ALPNProtocols = new Uint8Array(bytes);
    },
  });
}

export function createHttp2(): Record<string, unknown> {
  return unsupportedModule("http2", { functions: ["connect", "createServer", "createSecureServer", "performServerHandshake", "getPackedSettings", "getUnpackedSettings"], classes: ["Http2ServerRequest", "Http2ServerResponse"] }, {
    constants: { NGHTTP2_SESSION_SERVER: 0, NGHTTP2_SESSION_CLIENT: 1, HTTP2_HEADER_STATUS: ":status", HTTP2_HEADER_METHOD: ":method", HTTP2_HEADER_AUTHORITY: ":authority", HTTP2_HEADER_SCHEME: ":scheme", HTTP2_HEADER_PATH: ":path", HTTP2_HEADER_CONTENT_TYPE: "content-type", HTTP2_HEADER_CONTENT_LENGTH: "content-length", HTTP2_METHOD_GET: "GET", HTTP2_METHOD_POST: "POST", HTTP_STATUS_OK: 200, HTTP_STATUS_NOT_FOUND: 404 },
    getDefaultSettings: () => ({ headerTableSize: 4096, enablePush: true, initialWindowSize: 65535, maxFrameSize: 16384, maxConcurrentStreams: 4294967295, maxHeaderListSize: 65535, maxHeaderSize: 65535, enableConnectProtocol: false }),
    sensitiveHeaders: Symbol("nodejs.http2.sensitiveHeaders"),
  });
}

export function createInspector(): Record<string, unknown> {
  return unsupportedModule("inspector", { functions: ["open", "waitForDebugger"], classes: ["Session"] }, {
    close: () => undefined,
    url: () => undefined,
    console: globalThis.console,
    Network: {},
  });
}

export function createRepl(builtinModules: () => string[]): Record<string, unknown> {
  return unsupportedModule("repl", { functions: ["start"], classes: ["REPLServer"] }, {
    REPL_MODE_SLOPPY: Symbol("repl-sloppy"),
    REPL_MODE_STRICT: Symbol("repl-strict"),
    Recoverable: class Recoverable extends SyntaxError {
      constructor(readonly err: Error) {
        super();
      }
    },
    get builtinModules() {
      return builtinModules();
    },
  });
}

export function createTraceEvents(): Record<string, unknown> {
  // Tracing records nothing here: a Tracing object that is enabled and disabled as asked, as Node's is without --trace-event-categories.
  return {
    createTracing: (options: { categories?: string[] }) => {
      if (!options || !Array.isArray(options.categories)) throw Object.assign(new TypeError('The "options.categories" property must be an instance of Array.'), { code: "ERR_INVALID_ARG_TYPE" });
      const categories = options.categories.join(",");
      return { categories, enabled: false, enable() { this.enabled = true; }, disable() { this.enabled = false; } };
    },
    getEnabledCategories: () => undefined,
  };
}

export function createSea(): Record<string, unknown> {
  return unsupportedModule("sea", { functions: ["getAsset", "getAssetAsBlob", "getRawAsset"] }, { isSea: () => false });
}
