// OAuth for MCP servers against a real MCP server and a small OAuth 2.1 authorization server on
// 127.0.0.1: dynamic registration, PKCE code flow (the popup's redirect is followed by hand here),
// tokens stored, used by the connection, refreshed when the server says they expired, sign-out,
// and a clear message when the authorization server cannot be reached from the page.
import { afterEach, describe, expect, it } from "vitest";
import { McpHub, createMcpOAuthProvider, probeMcpServer, signInMcp, type AuthorizationCallback, type McpOAuthState, type McpOAuthStore, type McpServerConfig } from "../../src/agent";
import type { ToolContext } from "../../src/agent/tools/tool";
import { startMcpTestServer } from "../support/mcp-test-server";
import { startOAuthTestServer } from "../support/oauth-test-server";

const REDIRECT = "http://127.0.0.1:4173/oauth-callback.html";
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function memoryStore(): McpOAuthStore & { state: McpOAuthState | undefined } {
  const store = {
    state: undefined as McpOAuthState | undefined,
    load: () => store.state,
    update: async (change: (current: McpOAuthState | undefined) => McpOAuthState | undefined) => void (store.state = change(store.state)),
  };
  return store;
}

/** What the popup does: the authorization server approves at once and redirects back. */
async function followAuthorization(url: URL): Promise<AuthorizationCallback> {
  const response = await fetch(url, { redirect: "manual" });
  const location = new URL(response.headers.get("location") ?? "", url);
  const p = location.searchParams;
  return { ...(p.get("code") && { code: p.get("code")! }), ...(p.get("state") && { state: p.get("state")! }), ...(p.get("iss") && { iss: p.get("iss")! }) };
}

async function setup() {
  const as = await startOAuthTestServer();
  const server = await startMcpTestServer({ oauth: as });
  cleanups.push(() => as.close(), () => server.close());
  const config: McpServerConfig = { id: "o1", name: "secure", url: server.url, transport: "http", enabled: true, timeoutMs: 10_000, source: { kind: "user" } };
  return { as, server, config };
}

const context = () => ({ ask: async () => undefined, abort: new AbortController().signal }) as unknown as ToolContext;

describe("MCP OAuth", () => {
  it("says authorization is required, signs in with PKCE and dynamic registration, and connects with the token", async () => {
    const { as, server, config } = await setup();
    expect((await probeMcpServer(config)).kind).toBe("auth");

    const store = memoryStore();
    let opened: URL | undefined;
    await signInMcp(config, { redirectUrl: REDIRECT, store, openAuthorization: (url) => ((opened = url), followAuthorization(url)) });
    expect(as.registrations).toEqual([{ client_id: "client-1", redirect_uris: [REDIRECT] }]);
    expect(opened?.searchParams.get("code_challenge_method")).toBe("S256");
    expect(opened?.searchParams.get("redirect_uri")).toBe(REDIRECT);
    expect(as.grants).toEqual(["authorization_code"]);
    expect(store.state?.tokens?.access_token).toMatch(/^at-/);
    expect(store.state?.registered).toBe(true);

    const provider = createMcpOAuthProvider({ config, redirectUrl: REDIRECT, store });
    expect((await probeMcpServer(config, { authProvider: provider })).kind).toBe("connected");

    const hub = new McpHub({ authProvider: () => createMcpOAuthProvider({ config, redirectUrl: REDIRECT, store }) });
    cleanups.push(() => hub.dispose());
    hub.setServers([config]);
    await expect.poll(() => hub.store.getState().servers.o1?.status, { timeout: 10_000 }).toBe("connected");
    const echo = () => hub.tools().find((t) => t.id === "secure_echo")!;
    expect((await echo().execute({ text: "a" }, context())).output).toBe("echo: a");

    // The token expires: the server answers 401, the client refreshes and the call goes through.
    const before = store.state?.tokens?.access_token;
    as.expireAll();
    expect((await echo().execute({ text: "b" }, context())).output).toBe("echo: b");
    expect(as.grants).toEqual(["authorization_code", "refresh_token"]);
    expect(store.state?.tokens?.access_token).not.toBe(before);
    expect(server.calls.map((c) => c.args)).toEqual([{ text: "a" }, { text: "b" }]);

    // Signing out forgets the tokens: the server asks for authorization again.
    await store.update(() => undefined);
    expect((await probeMcpServer(config, { authProvider: createMcpOAuthProvider({ config, redirectUrl: REDIRECT, store }) })).kind).toBe("auth");
  }, 30_000);

  it("uses the client id typed in Settings when the authorization server has no dynamic registration", async () => {
    const as = await startOAuthTestServer({ preregistered: { client_id: "typed-client", redirect_uris: [REDIRECT] } });
    const server = await startMcpTestServer({ oauth: as });
    cleanups.push(() => as.close(), () => server.close());
    const base: McpServerConfig = { id: "o2", name: "pre", url: server.url, transport: "http", enabled: true, timeoutMs: 10_000, source: { kind: "user" } };
    await expect(signInMcp(base, { redirectUrl: REDIRECT, store: memoryStore(), openAuthorization: followAuthorization })).rejects.toThrow(/Signing in to pre failed: .*enter the OAuth client ID/);
    const store = memoryStore();
    const config = { ...base, oauthClientId: "typed-client" };
    await signInMcp(config, { redirectUrl: REDIRECT, store, openAuthorization: followAuthorization });
    expect(as.registrations).toHaveLength(1);
    expect(store.state?.tokens?.access_token).toMatch(/^at-/);
    expect((await probeMcpServer(config, { authProvider: createMcpOAuthProvider({ config, redirectUrl: REDIRECT, store }) })).kind).toBe("connected");
  }, 30_000);

  it("explains an authorization server the page cannot reach, and a refused sign-in", async () => {
    const { as, config } = await setup();
    const store = memoryStore();
    await expect(signInMcp(config, { redirectUrl: REDIRECT, store, openAuthorization: async () => ({ error: "access_denied", errorDescription: "The user said no" }) })).rejects.toThrow(
      "refused the sign-in: The user said no",
    );
    await as.close();
    cleanups.splice(0, 1);
    await expect(signInMcp(config, { redirectUrl: REDIRECT, store: memoryStore(), openAuthorization: followAuthorization })).rejects.toThrow(/refuses requests from a web page \(CORS\) or cannot be reached/);
  }, 30_000);
});
