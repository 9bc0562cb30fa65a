// The "Permissions" part of the Settings dialog: for file edits, shell commands and web fetches,
// keep the default or make the agent always ask, always go ahead, or never do it.
import { useId, useSyncExternalStore } from "react";
import type { NetworkLog } from "../../runtime";
import { useStore } from "zustand";
import { PERMISSION_KINDS, type PermissionChoice, type PermissionSettings } from "./permission-settings";

export function PermissionSection({
  permissions,
  networkLog,
  onProblem,
}: {
  permissions: PermissionSettings;
  networkLog?: NetworkLog;
  onProblem(action: () => Promise<void>): void;
}) {
  const { choices, origins } = useStore(permissions.store);
  const baseId = useId();
  return (
    <section className="settings-section" aria-labelledby={`${baseId}-title`}>
      <h3 id={`${baseId}-title`}>Permissions</h3>
      <p className="form-hint">What the agent may do without asking you. Changes apply to the next action.</p>
      {PERMISSION_KINDS.map(({ permission, label, defaultNote }) => (
        <div className="form-row form-row-inline" key={permission}>
          <label htmlFor={`${baseId}-${permission}`} className="permission-label">
            {label}
          </label>
          <select
            id={`${baseId}-${permission}`}
            className="select"
            value={choices[permission] ?? ""}
            title={`Default: ${defaultNote}`}
            onChange={(event) => onProblem(() => permissions.set(permission, (event.target.value || undefined) as PermissionChoice | undefined))}
          >
            <option value="">Default ({defaultNote.split(";")[0]})</option>
            <option value="ask">Ask first</option>
            <option value="allow">Allow</option>
            <option value="deny">Never</option>
          </select>
        </div>
      ))}
      <h4 id={`${baseId}-origins`}>Sites commands may always reach</h4>
      {origins.length === 0 ? (
        <p className="form-hint">None yet. “Always allow” on a site's ask adds it here; the npm registry, PyPI and your providers need no ask.</p>
      ) : (
        <ul className="trusted-origins" aria-labelledby={`${baseId}-origins`}>
          {origins.map((origin) => (
            <li key={origin}>
              <code>{origin}</code>{" "}
              <button type="button" className="button" aria-label={`Stop trusting ${origin}`} onClick={() => onProblem(() => permissions.distrustOrigin(origin))}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      {networkLog && <NetworkLogView log={networkLog} />}
    </section>
  );
}

/** The requests commands, webfetch and MCP servers made from this page (newest first, the last 50 shown). */
function NetworkLogView({ log }: { log: NetworkLog }) {
  // Re-rendered at each new request.
  useSyncExternalStore(
    (listener) => log.subscribe(listener),
    () => log.version,
  );
  const titleId = useId();
  const list = log.entries().slice(-50).reverse();
  return (
    <>
      <h4 id={titleId}>Requests from this page</h4>
      {list.length === 0 ? (
        <p className="form-hint">No command, web fetch or MCP server has made a request since the page was opened.</p>
      ) : (
        <ul className="network-log" aria-labelledby={titleId}>
          {list.map((entry, i) => (
            <li key={`${entry.at}-${i}`}>
              <span>{new Date(entry.at).toLocaleTimeString()}</span> <span>{entry.outcome === "refused" ? "refused" : "sent"}</span>{" "}
              <code>
                {entry.method} {entry.destination}
              </code>{" "}
              <span>
                by {entry.by === "agent" ? "the agent" : entry.by === "terminal" ? "you (terminal)" : entry.by}: <code>{entry.command}</code>
              </span>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
