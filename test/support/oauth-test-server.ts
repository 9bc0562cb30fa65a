// A small OAuth 2.1 authorization server for tests on 127.0.0.1: metadata discovery, dynamic client
// registration, an authorization endpoint that approves at once (redirects back with a code),
// and a token endpoint that checks PKCE (S256) and issues short-lived tokens with refresh. With
// `cors: false` it refuses browser requests (no CORS headers).
import { createHash, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface OAuthTestServerOptions {
  /** Seconds an access token lives (default 3600). */
  tokenLifetimeS?: number;
  cors?: boolean;
  /** No dynamic registration: only this client, registered beforehand, may sign in. */
  preregistered?: { client_id: string; redirect_uris: string[] };
}

export interface OAuthTestServer {
  issuer: string;
  /** Whether `token` is a live access token. */
  validate(token: string | undefined): boolean;
  registrations: Array<{ client_id: string; redirect_uris: string[] }>;
  /** Grants seen at the token endpoint, in order. */
  grants: string[];
  /** Makes every access token issued so far expire now. */
  expireAll(): void;
  close(): Promise<void>;
}

async function body(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export async function startOAuthTestServer(options: OAuthTestServerOptions = {}): Promise<OAuthTestServer> {
  const lifetime = (options.tokenLifetimeS ?? 3600) * 1000;
  const registrations: OAuthTestServer["registrations"] = options.preregistered ? [options.preregistered] : [];
  const grants: string[] = [];
  const codes = new Map<string, { client_id: string; challenge: string; redirect_uri: string }>();
  const access = new Map<string, number>();
  const refresh = new Set<string>();
  let issuer = "";

  const issue = () => {
    const accessToken = `at-${randomUUID()}`;
    const refreshToken = `rt-${randomUUID()}`;
    access.set(accessToken, Date.now() + lifetime);
    refresh.add(refreshToken);
    return { access_token: accessToken, token_type: "Bearer", expires_in: Math.round(lifetime / 1000), refresh_token: refreshToken };
  };

  const json = (res: ServerResponse, status: number, value: unknown) => {
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (options.cors !== false) {
      res.setHeader("access-control-allow-origin", "*");
      res.setHeader("access-control-allow-headers", String(req.headers["access-control-request-headers"] ?? "content-type, authorization"));
      res.setHeader("access-control-allow-methods", "GET, POST, OPTIONS");
    }
    if (req.method === "OPTIONS") return void res.writeHead(204).end();
    const url = new URL(req.url ?? "/", issuer);
    if (url.pathname.startsWith("/.well-known/oauth-authorization-server") || url.pathname.startsWith("/.well-known/openid-configuration")) {
      return json(res, 200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        ...(!options.preregistered && { registration_endpoint: `${issuer}/register` }),
        response_types_supported: ["code"],
        grant_types_supported: ["authorization_code", "refresh_token"],
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["none"],
      });
    }
    if (url.pathname === "/register" && req.method === "POST" && !options.preregistered) {
      const metadata = JSON.parse(await body(req)) as { redirect_uris: string[] };
      const client = { ...metadata, client_id: `client-${registrations.length + 1}`, client_id_issued_at: Math.floor(Date.now() / 1000) };
      registrations.push({ client_id: client.client_id, redirect_uris: metadata.redirect_uris });
      return json(res, 201, client);
    }
    if (url.pathname === "/authorize") {
      const p = url.searchParams;
      const client = registrations.find((r) => r.client_id === p.get("client_id"));
      const redirect = p.get("redirect_uri") ?? "";
      if (!client || !client.redirect_uris.includes(redirect) || p.get("code_challenge_method") !== "S256" || !p.get("code_challenge")) {
        return void res.writeHead(400, { "content-type": "text/plain" }).end("invalid authorization request");
      }
      const code = `code-${randomUUID()}`;
      codes.set(code, { client_id: client.client_id, challenge: p.get("code_challenge")!, redirect_uri: redirect });
      const back = new URL(redirect);
      back.searchParams.set("code", code);
      if (p.get("state")) back.searchParams.set("state", p.get("state")!);
      back.searchParams.set("iss", issuer);
      return void res.writeHead(302, { location: back.href }).end();
    }
    if (url.pathname === "/token" && req.method === "POST") {
      const form = new URLSearchParams(await body(req));
      const grant = form.get("grant_type") ?? "";
      grants.push(grant);
      if (grant === "authorization_code") {
        const entry = codes.get(form.get("code") ?? "");
        codes.delete(form.get("code") ?? "");
        const verifier = form.get("code_verifier") ?? "";
        const challenge = createHash("sha256").update(verifier).digest("base64url");
        if (!entry || entry.challenge !== challenge || entry.client_id !== form.get("client_id")) return json(res, 400, { error: "invalid_grant", error_description: "bad code or PKCE verifier" });
        return json(res, 200, issue());
      }
      if (grant === "refresh_token") {
        const token = form.get("refresh_token") ?? "";
        if (!refresh.delete(token)) return json(res, 400, { error: "invalid_grant", error_description: "unknown refresh token" });
        return json(res, 200, issue());
      }
      return json(res, 400, { error: "unsupported_grant_type" });
    }
    res.writeHead(404, { "content-type": "text/plain" }).end("not found");
  };

  const http = createServer((req, res) => void handle(req, res).catch((error: unknown) => res.writeHead(500).end(String(error))));
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return {
    issuer,
    registrations,
    grants,
    validate: (token) => token !== undefined && (access.get(token) ?? 0) > Date.now(),
    expireAll: () => {
      for (const token of access.keys()) access.set(token, 0);
    },
    close: () => new Promise<void>((resolve) => http.close(() => resolve())),
  };
}
