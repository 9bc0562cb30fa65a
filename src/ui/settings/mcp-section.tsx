// Settings → MCP servers (issue 14 point 1): the remote servers the agent may use, each with its
// source, its status and an Enabled switch; add, edit (name, URL, transport, headers kept like keys,
// timeout, OAuth client id), Test, Sign in / Sign out, remove. Headers are never shown back in full.
import { useId, useState, type FormEvent } from "react";
import { useStore } from "zustand";
import type { StoreApi } from "zustand/vanilla";
import { newId } from "../../base";
import { useAttempt } from "../common";
import { DEFAULT_MCP_TIMEOUT_MS, mcpNameProblem, mcpUrlProblem, type McpHubState, type McpProbeResult, type McpServerConfig } from "../../agent";
import { isCredentialHeader, maskKey } from "../../providers";
import type { McpSettings } from "./mcp-settings";

export interface McpActions {
  settings: McpSettings;
  /** Live status per server id (connected with tools, connecting, error). */
  status: StoreApi<McpHubState>;
  test(config: McpServerConfig): Promise<McpProbeResult>;
  /** OAuth sign-in in a popup; resolves once tokens are stored. */
  signIn?(config: McpServerConfig): Promise<void>;
  signOut?(id: string): Promise<void>;
  /** Asks for the keys' passphrase (servers whose credentials are sealed by it). */
  unlock?(): Promise<void>;
}

export const MCP_OUTCOME_HEADINGS: Record<McpProbeResult["kind"], string> = {
  connected: "Connected",
  unreachable: "Server unreachable",
  cors: "Blocked by the browser (CORS)",
  auth: "Authorization required",
  protocol: "Protocol error",
};

function sourceText(config: McpServerConfig): string {
  if (config.source.kind === "user") return "added by you";
  return `from ${config.source.file} of workspace ${config.source.workspaceName ?? config.source.workspaceId}`;
}

function statusText(config: McpServerConfig, state: McpHubState): string {
  if (config.sealed && !config.enabled) return "disabled, credentials locked";
  if (!config.enabled) return "disabled";
  if (config.sealed) return "locked: its credentials are encrypted with your passphrase; unlock to connect";
  const status = state.servers[config.id];
  if (!status || status.status === "connecting") return "connecting…";
  if (status.status === "connected") return `connected, ${status.tools.length} tool${status.tools.length === 1 ? "" : "s"}`;
  if (status.status === "error") return `not connected: ${status.message.slice(0, 160)}`;
  return "disabled";
}

export function McpSection({ actions, onProblem }: { actions: McpActions; onProblem(action: () => Promise<void>): void }) {
  const { servers } = useStore(actions.settings.store);
  const state = useStore(actions.status);
  const [editing, setEditing] = useState<string | "add" | undefined>();
  const editingConfig = editing && editing !== "add" ? servers.find((s) => s.id === editing) : undefined;
  return (
    <section className="settings-section" aria-labelledby="settings-mcp">
      <h3 id="settings-mcp">MCP servers</h3>
      <p className="form-hint">
        Remote Model Context Protocol servers give the agent their tools (named <code>server_tool</code>). Each call asks first unless you allow it. The page talks to
        each server directly, so the server must allow this site (CORS).
      </p>
      {servers.length > 0 && (
        <ul className="provider-list mcp-list">
          {servers.map((config) => (
            <li key={config.id} className="provider-row mcp-row" data-mcp-server={config.name}>
              <input
                type="checkbox"
                checked={config.enabled}
                aria-label={`Enable ${config.name}`}
                onChange={(event) => {
                  const enabled = event.target.checked;
                  onProblem(() => actions.settings.setEnabled(config.id, enabled));
                }}
              />
              <span className="provider-name">{config.name}</span>
              <span className="provider-detail" title={`${config.url} (${sourceText(config)})`}>
                {config.url} · {sourceText(config)} · <span className="mcp-status">{statusText(config, state)}</span>
              </span>
              {config.sealed && actions.unlock && (
                <button type="button" className="button" aria-label={`Unlock ${config.name}`} onClick={() => onProblem(() => actions.unlock!())}>
                  Unlock
                </button>
              )}
              <button
                type="button"
                className="button"
                aria-label={`Edit ${config.name}`}
                onClick={() => {
                  // Its headers and sign-in are sealed: the form needs them, so the passphrase comes first.
                  if (config.sealed && actions.unlock) onProblem(() => actions.unlock!().then(() => setEditing(config.id)));
                  else setEditing(config.id);
                }}
              >
                Edit
              </button>
            </li>
          ))}
        </ul>
      )}
      {!editing && (
        <button type="button" className="button" onClick={() => setEditing("add")}>
          Add MCP server
        </button>
      )}
      {(editing === "add" || editingConfig) && (
        <McpServerForm
          key={editing}
          existing={editingConfig}
          actions={actions}
          onDone={() => setEditing(undefined)}
          onRemove={(id) =>
            onProblem(async () => {
              await actions.settings.remove(id);
              setEditing(undefined);
            })
          }
        />
      )}
    </section>
  );
}

/** "Name: value" per line, as typed; header names are checked, values kept as they are. */
function parseHeaders(text: string): { headers: Record<string, string>; problem?: string } {
  const headers: Record<string, string> = {};
  for (const [index, line] of text.split("\n").entries()) {
    if (!line.trim()) continue;
    const colon = line.indexOf(":");
    const name = colon > 0 ? line.slice(0, colon).trim() : "";
    if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(name)) return { headers, problem: `Header line ${index + 1} must look like "Name: value".` };
    headers[name] = line.slice(colon + 1).trim();
  }
  return { headers };
}

/** Headers as the form shows them: credential values masked (a masked line keeps the saved value). */
function headerLines(headers: Record<string, string> | undefined): string {
  return Object.entries(headers ?? {})
    .map(([name, value]) => `${name}: ${isCredentialHeader(name) ? maskKey(value) || "••••" : value}`)
    .join("\n");
}

function McpServerForm({ existing, actions, onDone, onRemove }: { existing?: McpServerConfig; actions: McpActions; onDone(): void; onRemove(id: string): void }) {
  const ids = { name: useId(), url: useId(), transport: useId(), headers: useId(), timeout: useId(), client: useId(), hint: useId() };
  const [name, setName] = useState(existing?.name ?? "");
  const [url, setUrl] = useState(existing?.url ?? "");
  const [transport, setTransport] = useState<McpServerConfig["transport"]>(existing?.transport ?? "auto");
  const shownHeaders = headerLines(existing?.secret?.headers);
  const [headersText, setHeadersText] = useState(shownHeaders);
  const [timeout, setTimeoutText] = useState(String((existing?.timeoutMs ?? DEFAULT_MCP_TIMEOUT_MS) / 1000));
  const [clientId, setClientId] = useState(existing?.oauthClientId ?? "");
  const { busy, problem, attempt } = useAttempt();
  const [test, setTest] = useState<{ status: "idle" } | { status: "testing" } | { status: "done"; result: McpProbeResult }>({ status: "idle" });

  /** The config as typed; throws what is wrong. */
  const build = (): McpServerConfig => {
    const trimmed = name.trim();
    const nameProblem = mcpNameProblem(trimmed);
    if (nameProblem) throw new Error(`Name: ${nameProblem}`);
    const urlProblem = mcpUrlProblem(url.trim());
    if (urlProblem) throw new Error(urlProblem);
    const parsed = parseHeaders(headersText);
    if (parsed.problem) throw new Error(parsed.problem);
    // A line left as shown (masked) keeps the saved value.
    const saved = existing?.secret?.headers ?? {};
    const headers: Record<string, string> = {};
    for (const [header, value] of Object.entries(parsed.headers)) headers[header] = saved[header] !== undefined && headerLines({ [header]: saved[header] }) === `${header}: ${value}` ? saved[header] : value;
    const seconds = Number(timeout);
    if (!Number.isFinite(seconds) || seconds < 1 || seconds > 3600) throw new Error("Timeout: enter a number of seconds from 1 to 3600.");
    const secret: NonNullable<McpServerConfig["secret"]> = { ...existing?.secret, headers };
    if (Object.keys(headers).length === 0) delete secret.headers;
    return {
      id: existing?.id ?? newId("mcp"),
      name: trimmed,
      url: url.trim(),
      transport,
      enabled: existing?.enabled ?? true,
      timeoutMs: Math.round(seconds * 1000),
      source: existing?.source ?? { kind: "user" },
      ...(clientId.trim() && { oauthClientId: clientId.trim() }),
      ...(Object.keys(secret).length > 0 && { secret }),
    };
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void attempt(async () => {
      await actions.settings.save(build());
      onDone();
    });
  };

  const runTest = () =>
    attempt(async () => {
      const config = build();
      setTest({ status: "testing" });
      setTest({ status: "done", result: await actions.test(config) });
    });

  const signedIn = !!existing?.secret?.oauth?.tokens;
  return (
    <form className="provider-form mcp-form" aria-label={existing ? `Edit MCP server ${existing.name}` : "Add MCP server"} onSubmit={submit}>
      {existing?.source.kind === "workspace" && (
        <p className="form-hint">
          Declared in {existing.source.file} of workspace {existing.source.workspaceName ?? existing.source.workspaceId}. Servers from a workspace start disabled: enable this one only if
          you trust that repository and the server.
        </p>
      )}
      <div className="form-row">
        <label htmlFor={ids.name}>Name</label>
        <input id={ids.name} className="text-input" value={name} placeholder="github" onChange={(e) => setName(e.target.value)} />
      </div>
      <div className="form-row">
        <label htmlFor={ids.url}>Server URL</label>
        <input id={ids.url} className="text-input" type="url" value={url} placeholder="https://example.com/mcp" onChange={(e) => setUrl(e.target.value)} />
      </div>
      <div className="form-row">
        <label htmlFor={ids.transport}>Transport</label>
        <select id={ids.transport} className="select" value={transport} onChange={(e) => setTransport(e.target.value as McpServerConfig["transport"])}>
          <option value="auto">Automatic (Streamable HTTP, then SSE)</option>
          <option value="http">Streamable HTTP</option>
          <option value="sse">SSE (older servers)</option>
        </select>
      </div>
      <div className="form-row">
        <label htmlFor={ids.headers}>Headers</label>
        <textarea
          id={ids.headers}
          className="text-input"
          rows={2}
          spellCheck={false}
          autoComplete="off"
          value={headersText}
          placeholder="Authorization: Bearer <token>"
          aria-describedby={ids.hint}
          onChange={(e) => setHeadersText(e.target.value)}
        />
        <p id={ids.hint} className="form-hint">
          One “Name: value” per line. Kept only in this browser's storage for this site, like provider keys; never exported or shared. Saved credentials are shown masked.
        </p>
      </div>
      <div className="form-row">
        <label htmlFor={ids.timeout}>Tool call timeout (seconds)</label>
        <input id={ids.timeout} className="text-input" inputMode="numeric" value={timeout} onChange={(e) => setTimeoutText(e.target.value)} />
      </div>
      <div className="form-row">
        <label htmlFor={ids.client}>OAuth client ID (only if the server has no dynamic registration)</label>
        <input id={ids.client} className="text-input" value={clientId} onChange={(e) => setClientId(e.target.value)} />
      </div>
      <div className="form-buttons">
        <button type="button" className="button" disabled={busy} onClick={() => void runTest()}>
          {test.status === "testing" ? "Testing…" : "Test"}
        </button>
        <button type="submit" className="button button-primary" disabled={busy}>
          Save
        </button>
        {existing && actions.signIn && !signedIn && (
          <button type="button" className="button" disabled={busy} onClick={() => void attempt(() => actions.signIn!(build()))}>
            Sign in
          </button>
        )}
        {existing && actions.signOut && signedIn && (
          <button type="button" className="button" disabled={busy} onClick={() => void attempt(() => actions.signOut!(existing.id))}>
            Sign out
          </button>
        )}
        {existing && (
          <button type="button" className="button button-danger" onClick={() => onRemove(existing.id)}>
            Remove server
          </button>
        )}
        <button type="button" className="button" onClick={onDone}>
          Cancel
        </button>
      </div>
      {test.status === "done" && (
        <div className={`test-result test-result-${test.result.ok ? "ok" : test.result.kind}`} role="status" data-outcome={test.result.kind}>
          <strong>{MCP_OUTCOME_HEADINGS[test.result.kind]}</strong>
          <p>{test.result.message}</p>
        </div>
      )}
      {problem && (
        <p className="input-error" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}
