// The OAuth redirect target for MCP sign-in: hands the authorization response to the webcode tab
// that started it (a BroadcastChannel: the page is cross-origin isolated, so the popup has no
// opener to post to) and closes. The code is useless without the tab's PKCE verifier.
const params = new URLSearchParams(location.search);
const message = {
  code: params.get("code") ?? undefined,
  state: params.get("state") ?? undefined,
  iss: params.get("iss") ?? undefined,
  error: params.get("error") ?? undefined,
  errorDescription: params.get("error_description") ?? undefined,
};
const channel = new BroadcastChannel("webcode-mcp-oauth");
channel.postMessage(message);
channel.close();
document.getElementById("status").textContent = message.error
  ? `The sign-in was refused (${message.errorDescription ?? message.error}). You can close this window.`
  : "Signed in. You can close this window.";
history.replaceState(null, "", location.pathname);
setTimeout(() => window.close(), 300);
