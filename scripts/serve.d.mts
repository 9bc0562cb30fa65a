// Types for serve.mjs (plain JavaScript so that `npm start` needs no TypeScript step).
import type { Server } from "node:http";
export { ISOLATION_HEADERS, SECURITY_HEADERS, RESPONSE_HEADERS } from "./response-headers.mjs";
export type ResolvedRequestPath = { kind: "bad" } | { kind: "outside" } | { kind: "file"; file: string };
export declare function resolveRequestPath(root: string, urlPath: string): ResolvedRequestPath;
export declare function createStaticServer(root: string): Server;
export declare const PORT_ATTEMPTS: number;
export declare const DEFAULT_PORT: number;
/** Listens on `port`, or (not `fixed`) the next free one; rejects with a one-line Error for the user. */
export declare function listen(server: Server, options: { port: number; host: string; fixed: boolean }): Promise<number>;
