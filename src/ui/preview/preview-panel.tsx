// The preview panel: shows a dev server started in the runtime (it opens on the runtime's
// server-ready event) in a frame with a URL bar and reload, and says so when that server stops.
// The built-in preview (the browser runtime serving the workspace's files, "Open preview" or
// npm run dev there) opens the same way and is shown by builtin-preview-frame.tsx.
import { useEffect, useId, useRef, useState } from "react";
import { PREVIEW_PREFIX, type Runtime } from "../../runtime";
import "./preview.css";
import { Icon, IconButton } from "../common";
import { BuiltinPreviewFrame } from "./builtin-preview-frame";
import { previewRequestPolicies, type PreviewRequestPolicies } from "./request-policy";

/** Is `url` one of this page's built-in previews (served by its service worker)? */
export function isBuiltinPreview(url: string, appOrigin: string): boolean {
  return url.startsWith(`${appOrigin}${PREVIEW_PREFIX}`);
}

export interface PreviewPanelProps {
  runtime: Runtime | undefined;
  /**
   * Called once when a server newly becomes ready, so the host can bring the preview to the front;
   * never for servers that were already up when the panel subscribed (replays), nor for a built-in
   * preview the agent started (it waits for the user's "Open preview").
   */
  onServerReady?(url: string): void;
  /** Which built-in previews the user opened (default: this page's). */
  policies?: PreviewRequestPolicies;
}

interface Server {
  port: number;
  url: string;
}

/** Only http(s) URLs load in the frame: a typed "javascript:" URL must never run in the app's origin. */
export function safePreviewUrl(input: string): string | undefined {
  try {
    const url = new URL(input.trim());
    return url.protocol === "http:" || url.protocol === "https:" ? url.toString() : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The frame's sandbox: scripts, forms, dialogs and pop-ups, as dev servers need; never navigating
 * the app's tab away (no allow-top-navigation). A preview keeps its own origin (its storage and
 * service worker need it) only when that origin is not the app's: on the app's origin it would
 * reach the app's storage (API keys included), so there it runs in an opaque origin instead.
 */
export function previewSandbox(url: string, appOrigin: string): string {
  const tokens = ["allow-scripts", "allow-forms", "allow-modals", "allow-popups"];
  let origin: string | undefined;
  try {
    origin = new URL(url).origin;
  } catch {
    origin = undefined;
  }
  if (origin !== undefined && origin !== "null" && origin !== appOrigin) tokens.push("allow-same-origin");
  return tokens.join(" ");
}

/** Powers the preview frame may use: cross-origin isolation (WebContainer previews) and writing to the clipboard; never reading it. */
export const PREVIEW_ALLOW = "cross-origin-isolated; clipboard-write";

/** The same server: a typed URL on it (another page) counts. */
function sameServer(shown: string, server: string): boolean {
  // Built-in previews (a folder, a program's server) share this page's origin: each is its own prefix.
  if (isBuiltinPreview(server, window.location.origin)) return shown.startsWith(server);
  try {
    return new URL(shown).origin === new URL(server).origin;
  } catch {
    return shown === server;
  }
}

export function PreviewPanel({ runtime, onServerReady, policies = previewRequestPolicies }: PreviewPanelProps) {
  const [servers, setServers] = useState<Server[]>([]);
  const [url, setShownUrl] = useState<string | undefined>(undefined);
  // The listeners below read what is shown now, not what it was when they subscribed.
  const shown = useRef<string | undefined>(undefined);
  const setUrl = (next: string | undefined) => {
    shown.current = next;
    setShownUrl(next);
  };
  const [typed, setTyped] = useState("");
  const [reloads, setReloads] = useState(0);
  const [urlError, setUrlError] = useState<string | undefined>(undefined);
  /** The port of a server that stopped while it was shown. */
  const [stopped, setStopped] = useState<number | undefined>(undefined);
  /**
   * A built-in preview the agent started, not opened yet: the agent wrote that site, so its page is
   * loaded only when the user asks (the request policy is in place by then and the user sees it).
   */
  const [held, setHeld] = useState<Server | undefined>(undefined);
  const inputId = useId();
  // The host passes a new callback on every render: read it through a ref so that a render never
  // re-subscribes (each subscription replays the running servers).
  const onReady = useRef(onServerReady);
  onReady.current = onServerReady;

  useEffect(() => {
    setServers([]);
    setUrl(undefined);
    setStopped(undefined);
    setHeld(undefined);
    if (!runtime) return;
    const known = new Map<number, string>();
    // Servers already up are reported during the subscribe call: they update the panel quietly.
    let replaying = true;
    const ready = runtime.onServerReady((port, serverUrl, startedBy) => {
      const isNew = !replaying && known.get(port) !== serverUrl;
      known.set(port, serverUrl);
      const builtin = isBuiltinPreview(serverUrl, window.location.origin);
      // The agent's command never brings the Preview to the front (only the user's do).
      const byAgent = builtin && startedBy === "agent";
      if (byAgent && !policies.isOpened(serverUrl)) {
        // Not in the server picker either: choosing it there would load it past the notice.
        setHeld({ port, url: serverUrl });
        return;
      }
      if (builtin) policies.markOpened(serverUrl);
      setHeld((h) => (h?.url === serverUrl ? undefined : h));
      setServers((list) => [...list.filter((s) => s.port !== port), { port, url: serverUrl }]);
      if (replaying || byAgent) {
        if (shown.current === undefined) {
          setUrl(serverUrl);
          setTyped(serverUrl);
        }
        return;
      }
      if (!isNew) return;
      setStopped(undefined);
      setUrl(serverUrl);
      setTyped(serverUrl);
      onReady.current?.(serverUrl);
    });
    replaying = false;
    const closed = runtime.onServerClosed?.((port) => {
      const serverUrl = known.get(port);
      known.delete(port);
      setServers((list) => list.filter((s) => s.port !== port));
      setHeld((h) => (h?.port === port ? undefined : h));
      if (serverUrl === undefined || shown.current === undefined || !sameServer(shown.current, serverUrl)) return;
      setStopped(port);
      setUrl(undefined);
    });
    return () => {
      ready.dispose();
      closed?.dispose();
    };
  }, [runtime, policies]);

  const go = () => {
    const safe = safePreviewUrl(typed);
    if (!safe) {
      setUrlError("Enter an http:// or https:// address.");
      return;
    }
    setUrlError(undefined);
    setStopped(undefined);
    setUrl(safe);
    setReloads((n) => n + 1);
  };

  if (!runtime) return <div className="preview-message" role="status">Starting the runtime…</div>;

  const openPreview = runtime.startPreview
    ? () => {
        setUrlError(undefined);
        runtime.startPreview!().catch((error: unknown) => setUrlError(`The preview could not start: ${error instanceof Error ? error.message : String(error)}`));
      }
    : undefined;
  const openButton = openPreview && (
    <button type="button" className="button" onClick={openPreview}>
      Open preview
    </button>
  );
  const serverPicker = servers.length > 1 && (
    <select
      aria-label="Server"
      value={url}
      onChange={(event) => {
        setUrl(event.target.value);
        setTyped(event.target.value);
      }}
    >
      {servers.map((s) => (
        <option key={s.port} value={s.url}>
          {isBuiltinPreview(s.url, window.location.origin) ? `preview (port ${s.port})` : `port ${s.port}`}
        </option>
      ))}
    </select>
  );

  const openHeld = (server: Server) => {
    policies.markOpened(server.url);
    setHeld(undefined);
    setServers((list) => [...list.filter((s) => s.port !== server.port), server]);
    setStopped(undefined);
    setUrl(server.url);
    setTyped(server.url);
  };
  const heldNotice = held && (
    <div className="preview-message preview-held" role="status">
      <Icon name="globe" size={32} />
      <p>
        The agent started a preview of <code>{held.url}</code>. It is not loaded until you open it: its page runs code the agent wrote.
      </p>
      <button type="button" className="button button-primary" onClick={() => openHeld(held)}>
        Open preview
      </button>
    </div>
  );

  // In front of whatever is shown: the agent's new preview is what the panel has to say now.
  if (heldNotice) return heldNotice;

  if (url && isBuiltinPreview(url, window.location.origin)) {
    return <BuiltinPreviewFrame key={url} runtime={runtime} base={url} actions={serverPicker} policies={policies} />;
  }

  if (!runtime.capabilities.servers && !url) {
    return (
      <div className="preview-message">
        <Icon name="globe" size={32} />
        <p>
          See the workspace as a website: the browser runtime serves its files (HTML, CSS, TypeScript, JSX, node_modules packages) right
          here. Press Open preview, or run <code>npm run dev</code> in the terminal.
        </p>
        {openButton}
        {urlError && (
          <p className="input-error" role="alert">
            {urlError}
          </p>
        )}
      </div>
    );
  }

  return (
    <div className="preview-panel">
      <form
        className="preview-bar"
        onSubmit={(event) => {
          event.preventDefault();
          go();
        }}
      >
        <IconButton icon="refresh" label="Reload preview" disabled={!url} onClick={() => setReloads((n) => n + 1)} />
        <label htmlFor={inputId} className="visually-hidden">
          Preview URL
        </label>
        <input
          id={inputId}
          className="text-input"
          value={typed}
          placeholder="Start a dev server in the terminal (e.g. npm run dev)"
          spellCheck={false}
          aria-invalid={urlError ? true : undefined}
          onChange={(event) => setTyped(event.target.value)}
        />
        {serverPicker}
      </form>
      {urlError && (
        <p className="input-error" role="alert">
          {urlError}
        </p>
      )}
      {url ? (
        <iframe
          key={`${url}#${reloads}`}
          className="preview-frame"
          title="Preview"
          src={url}
          sandbox={previewSandbox(url, window.location.origin)}
          allow={PREVIEW_ALLOW}
        />
      ) : stopped !== undefined ? (
        <div className="preview-message" role="status">
          <Icon name="globe" size={32} />
          <p>
            The server on port {stopped} stopped. Start it again (for example <code>npm run dev</code>) and it opens here.
          </p>
        </div>
      ) : (
        <div className="preview-message" role="status">
          <Icon name="globe" size={32} />
          <p>No server is running yet. Start one in the terminal (for example <code>npm run dev</code>) and it opens here, or serve the workspace's files with Open preview.</p>
          {openButton}
        </div>
      )}
      {url && (
        <p className="preview-note">
          This preview works only inside webcode: its address is served through this tab, so opening it in another tab does not load it.
        </p>
      )}
    </div>
  );
}
