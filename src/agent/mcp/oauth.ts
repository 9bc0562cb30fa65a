// OAuth 2.1 for MCP servers that require it (issue 14 point 2), on the AI SDK's OAuth client
// (`auth` from @ai-sdk/mcp: discovery, dynamic client registration, PKCE, code exchange, refresh).
// This file only supplies the storage (tokens and registration kept like keys, in the server's
// `secret`) and the two halves of the browser flow: the popup is the UI's, handed in as
// `openAuthorization`. A connection refreshes an expired token when the server answers 401.
import { auth, type OAuthClientInformation, type OAuthClientProvider, type OAuthTokens } from "@ai-sdk/mcp";
import { errorMessage, toHex } from "../../base";
import type { McpOAuthState, McpServerConfig } from "./server-config";

/** Where the OAuth state of one server is read and written (Settings). */
export interface McpOAuthStore {
  load(): McpOAuthState | undefined;
  /** Changes the stored state as a function of the current one (after any change before it), then stores it. */
  update(change: (current: McpOAuthState | undefined) => McpOAuthState | undefined): Promise<void>;
}

/** What the popup's redirect brought back. */
export interface AuthorizationCallback {
  code?: string;
  state?: string;
  iss?: string;
  error?: string;
  errorDescription?: string;
}

export class McpSignInRequiredError extends Error {
  constructor(server: string) {
    super(`${server} needs you to sign in: open Settings → MCP servers, edit ${server} and press “Sign in”.`);
    this.name = "McpSignInRequiredError";
  }
}

export interface McpOAuthProviderOptions {
  config: McpServerConfig;
  /** The page that receives the authorization code (same origin as the app). */
  redirectUrl: string;
  store: McpOAuthStore;
  /** Called with the authorization URL; without it (background connections) sign-in is required. */
  onRedirect?: (url: URL) => void;
  now?: () => number;
}

/** The OAuth client of one server for the SDK. Verifier and state live only as long as one sign-in. */
export function createMcpOAuthProvider(options: McpOAuthProviderOptions): OAuthClientProvider {
  const { config, store } = options;
  const now = options.now ?? (() => Date.now());
  let verifier: string | undefined;
  let state: string | undefined;
  const update = (change: (current: McpOAuthState) => McpOAuthState | undefined) => store.update((current) => change(current ?? {}));
  return {
    get redirectUrl() {
      return options.redirectUrl;
    },
    get clientMetadata() {
      return {
        client_name: "webcode",
        redirect_uris: [options.redirectUrl],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "none",
      };
    },
    clientInformation(): OAuthClientInformation | undefined {
      const stored = store.load()?.client;
      if (stored && typeof stored.client_id === "string") return stored as OAuthClientInformation;
      // A client id the user typed (a server without dynamic registration).
      return config.oauthClientId ? { client_id: config.oauthClientId } : undefined;
    },
    isClientInformationDynamicallyRegistered: () => store.load()?.registered === true,
    saveClientInformation: (client) => update((current) => ({ ...current, client: { ...client }, registered: true })),
    tokens: () => store.load()?.tokens as OAuthTokens | undefined,
    saveTokens: (tokens) => update((current) => ({ ...current, tokens: { ...tokens }, tokensAt: now() })),
    authorizationServerInformation: () => store.load()?.authorizationServer,
    saveAuthorizationServerInformation: (info) => update((current) => ({ ...current, authorizationServer: { ...info } })),
    saveCodeVerifier: (value) => void (verifier = value),
    codeVerifier: () => {
      if (!verifier) throw new Error("The sign-in was not started from this page; start it again.");
      return verifier;
    },
    state: () => {
      const bytes = crypto.getRandomValues(new Uint8Array(16));
      return toHex(bytes);
    },
    saveState: (value) => void (state = value),
    storedState: () => state,
    redirectToAuthorization(url) {
      if (!options.onRedirect) throw new McpSignInRequiredError(config.name);
      options.onRedirect(url);
    },
    invalidateCredentials: (scope) =>
      update((current) => {
        if (scope === "all") return undefined;
        if (scope === "client") return { ...current, client: undefined, registered: undefined };
        if (scope === "tokens") return { ...current, tokens: undefined, tokensAt: undefined };
        verifier = undefined;
        return current;
      }),
  };
}

export interface SignInOptions {
  redirectUrl: string;
  store: McpOAuthStore;
  /** Shows the authorization page (a popup) and resolves with what its redirect brought back. */
  openAuthorization(url: URL): Promise<AuthorizationCallback>;
  fetch?: typeof fetch;
}

function isNetworkFailure(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) if (e instanceof TypeError) return true;
  return false;
}

/** Runs the authorization code flow with PKCE; resolves once tokens are stored. Errors are worded for the user. */
export async function signInMcp(config: McpServerConfig, options: SignInOptions): Promise<void> {
  let authorizationUrl: URL | undefined;
  const provider = createMcpOAuthProvider({ config, redirectUrl: options.redirectUrl, store: options.store, onRedirect: (url) => void (authorizationUrl = url) });
  const fetchFn = options.fetch;
  const explain = (error: unknown): Error => {
    if (isNetworkFailure(error)) {
      return new Error(
        `The authorization server of ${config.name} refuses requests from a web page (CORS) or cannot be reached, so webcode cannot sign in there. ` +
          "Ask its operator to allow this site, or add an Authorization header with a token instead.",
        { cause: error },
      );
    }
    const text = errorMessage(error);
    const hint = /registration/i.test(text) && !config.oauthClientId ? " This server does not register clients itself: enter the OAuth client ID its operator gave you, save, and sign in again." : "";
    return new Error(`Signing in to ${config.name} failed: ${text}${hint}`, { cause: error });
  };
  let result: Awaited<ReturnType<typeof auth>>;
  try {
    result = await auth(provider, { serverUrl: config.url, ...(fetchFn && { fetchFn }) });
  } catch (error) {
    throw explain(error);
  }
  if (result === "AUTHORIZED") return;
  if (!authorizationUrl) throw new Error(`${config.name} did not give an authorization page to sign in on.`);
  const callback = await options.openAuthorization(authorizationUrl);
  if (callback.error) throw new Error(`The authorization server of ${config.name} refused the sign-in: ${callback.errorDescription ?? callback.error}.`);
  if (!callback.code) throw new Error(`The sign-in to ${config.name} came back without an authorization code.`);
  try {
    result = await auth(provider, {
      serverUrl: config.url,
      authorizationCode: callback.code,
      ...(callback.state !== undefined && { callbackState: callback.state }),
      ...(callback.iss !== undefined && { callbackIssuer: callback.iss }),
      ...(fetchFn && { fetchFn }),
    });
  } catch (error) {
    throw explain(error);
  }
  if (result !== "AUTHORIZED") throw new Error(`${config.name} did not accept the sign-in; try again.`);
}
