// The browser half of MCP sign-in: a popup opened in the click (so pop-up blockers let it through),
// sent to the authorization page, and the code brought back by public/oauth-callback.html over a
// BroadcastChannel (the page is cross-origin isolated: the popup cannot post to its opener).
import { signInMcp, type AuthorizationCallback, type McpServerConfig } from "../../agent";
import type { McpSettings } from "./mcp-settings";

export const OAUTH_CHANNEL = "webcode-mcp-oauth";
export const OAUTH_CALLBACK_PATH = "/oauth-callback.html";
/** How long the sign-in waits for the authorization page to come back. */
export const SIGN_IN_TIMEOUT_MS = 5 * 60_000;

function waitForCallback(timeoutMs: number): Promise<AuthorizationCallback> {
  return new Promise((resolve, reject) => {
    const channel = new BroadcastChannel(OAUTH_CHANNEL);
    const timer = setTimeout(() => {
      channel.close();
      reject(new Error("The sign-in did not finish within 5 minutes. Press Sign in to try again."));
    }, timeoutMs);
    channel.onmessage = (event: MessageEvent<AuthorizationCallback>) => {
      clearTimeout(timer);
      channel.close();
      resolve(event.data);
    };
  });
}

/** Must be called inside the click: it opens the popup before anything else. */
export function signInWithPopup(config: McpServerConfig, settings: McpSettings, origin: string): Promise<void> {
  const popup = window.open("about:blank", "webcode-mcp-sign-in", "popup,width=520,height=680");
  if (!popup) return Promise.reject(new Error("The browser blocked the sign-in window: allow pop-ups for this site, then press Sign in again."));
  const callback = waitForCallback(SIGN_IN_TIMEOUT_MS);
  callback.catch(() => undefined);
  return signInMcp(config, {
    redirectUrl: `${origin}${OAUTH_CALLBACK_PATH}`,
    store: { load: () => settings.oauthOf(config.id), update: (change) => settings.updateOAuth(config.id, change) },
    openAuthorization: (url) => {
      popup.location.href = url.href;
      return callback;
    },
  }).finally(() => {
    // Closed here when it never left this origin; the callback page closes itself otherwise.
    try {
      popup.close();
    } catch {
      // A popup in another browsing context group cannot be closed from here.
    }
  });
}
