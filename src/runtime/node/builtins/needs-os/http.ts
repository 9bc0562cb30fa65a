// node:http in the browser runtime: loads with Node's METHODS and STATUS_CODES and its classes
// (Express builds its request and response on their prototypes); serving and requesting throw the
// one line naming WebContainer. Replaced by the servers of issue 29 (one factory per module).
import type { Readable as NodeReadable, Writable as NodeWritable } from "stream";
import stream from "readable-stream";
import { unsupportedFunction, unsupportedModule, NeedsWebContainerError } from "../unsupported";
import { METHODS, STATUS_CODES } from "./http-tables";

const { Readable, Writable } = stream as unknown as { Readable: typeof NodeReadable; Writable: typeof NodeWritable };

function throwingSubclass<T extends abstract new (...args: never[]) => object>(base: T, module: string, name: string): T {
  const cls = {
    [name]: class extends (base as unknown as new () => object) {
      constructor() {
        super();
        throw new NeedsWebContainerError(`node:${module} ${name}`);
      }
    },
  }[name]!;
  return cls as unknown as T;
}

export function createHttp(module = "http"): Record<string, unknown> {
  const OutgoingMessage = throwingSubclass(Writable, module, "OutgoingMessage");
  return unsupportedModule(module, { functions: ["createServer", "request", "get", "setMaxIdleHTTPParsers"], classes: ["Agent", "Server"] }, {
    METHODS: [...METHODS],
    STATUS_CODES: { ...STATUS_CODES },
    IncomingMessage: throwingSubclass(Readable, module, "IncomingMessage"),
    OutgoingMessage,
    ServerResponse: throwingSubclass(OutgoingMessage, module, "ServerResponse"),
    ClientRequest: throwingSubclass(OutgoingMessage, module, "ClientRequest"),
    validateHeaderName: (name: unknown) => {
      if (typeof name !== "string" || !/^[\^_`a-zA-Z\-0-9!#$%&'*+.|~]+$/.test(name)) throw Object.assign(new TypeError(`Header name must be a valid HTTP token ["${String(name)}"]`), { code: "ERR_INVALID_HTTP_TOKEN" });
    },
    validateHeaderValue: (name: string, value: unknown) => {
      if (value === undefined) throw Object.assign(new TypeError(`Invalid value "undefined" for header "${name}"`), { code: "ERR_HTTP_INVALID_HEADER_VALUE" });
      if (/[^\t\x20-\x7e\x80-\xff]/.test(String(value))) throw Object.assign(new TypeError(`Invalid character in header content ["${name}"]`), { code: "ERR_INVALID_CHAR" });
    },
    maxHeaderSize: 16384,
    globalAgent: {},
    _connectionListener: unsupportedFunction(module, "_connectionListener"),
  });
}
