// Types for response-headers.mjs (plain JavaScript so that `node scripts/serve.mjs` runs without a build).
export declare const ISOLATION_HEADERS: Readonly<Record<string, string>>;
export declare const SECURITY_HEADERS: Readonly<Record<string, string>>;
export declare const RESPONSE_HEADERS: Readonly<Record<string, string>>;
export declare const SANDBOX_PAGE_PATH: string;
export declare function responseHeadersFor(urlPath: string): Readonly<Record<string, string>>;
export declare const SHARED_HEADERS: Readonly<Record<string, string>>;
