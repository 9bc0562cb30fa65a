// The "Runtime" part of the Settings dialog: use WebContainer (Node.js in the tab) when available,
// a per-user override of the deployment's StackBlitz API key (src/runtime/webcontainer-licence.ts),
// and the boot timeout.
import { useId, useState } from "react";
import { useStore } from "zustand";
import { maskKey } from "../../providers";
import { MAX_BOOT_TIMEOUT_MS, MIN_BOOT_TIMEOUT_MS } from "../../runtime";
import type { RuntimeSettingsStore } from "./runtime-settings-store";
import { GitSettingsSection } from "./git-settings-section";
import { GitHubSettingsSection } from "./github-settings-section";

export function RuntimeSection({ runtime, onProblem }: { runtime: RuntimeSettingsStore; onProblem(action: () => Promise<void>): void }) {
  const settings = useStore(runtime.store);
  const baseId = useId();
  const [keyDraft, setKeyDraft] = useState("");
  const [timeoutDraft, setTimeoutDraft] = useState<string | undefined>(undefined);
  const seconds = timeoutDraft ?? String(Math.round(settings.bootTimeoutMs / 1000));
  const commitTimeout = () => {
    if (timeoutDraft === undefined) return;
    const value = Number(timeoutDraft);
    setTimeoutDraft(undefined);
    if (Number.isFinite(value) && value > 0) onProblem(() => runtime.update({ bootTimeoutMs: value * 1000 }));
  };
  return (
    <section className="settings-section" aria-labelledby={`${baseId}-title`}>
      <h3 id={`${baseId}-title`}>Runtime</h3>
      <p className="form-hint">
        Files, the terminal and the agent always run in the browser runtime at once. Where it can, webcode also starts WebContainer (Node.js with npm and dev
        servers, from StackBlitz) in the background and moves the workspace to it when it is ready. WebContainer changes here apply the next time webcode
        opens.
      </p>
      <div className="form-row form-row-inline">
        <input
          id={`${baseId}-use`}
          type="checkbox"
          checked={settings.useWebContainer}
          onChange={(event) => onProblem(() => runtime.update({ useWebContainer: event.target.checked }))}
        />
        <label htmlFor={`${baseId}-use`}>Use WebContainer when available</label>
      </div>
      <div className="form-row">
        <label htmlFor={`${baseId}-key`} className="form-label">
          WebContainer licence key (StackBlitz)
        </label>
        <div className="form-row-inline">
          <input
            id={`${baseId}-key`}
            className="text-input"
            type="password"
            autoComplete="off"
            spellCheck={false}
            placeholder={settings.webContainerApiKey ? `Saved: ${maskKey(settings.webContainerApiKey)}` : "Not needed on localhost"}
            value={keyDraft}
            onChange={(event) => setKeyDraft(event.target.value)}
          />
          <button
            type="button"
            className="button"
            disabled={keyDraft.trim() === ""}
            onClick={() =>
              onProblem(async () => {
                await runtime.update({ webContainerApiKey: keyDraft.trim() });
                setKeyDraft("");
              })
            }
          >
            Set key
          </button>
          {settings.webContainerApiKey && (
            <button type="button" className="button" onClick={() => onProblem(() => runtime.update({ webContainerApiKey: "" }))}>
              Remove key
            </button>
          )}
        </div>
        <p className="form-hint">
          WebContainer runs without a key on localhost. On any other domain StackBlitz requires a commercial licence; the site's deployer usually sets its key
          for everyone. A key set here overrides it in this browser only (from your StackBlitz account's WebContainer API settings, with this site's domain
          allowed). Kept only in this browser's storage for this site; never exported or shared.
        </p>
      </div>
      <div className="form-row form-row-inline">
        <label htmlFor={`${baseId}-timeout`}>Give up waiting for WebContainer after (seconds)</label>
        <input
          id={`${baseId}-timeout`}
          className="text-input settings-number"
          type="number"
          min={MIN_BOOT_TIMEOUT_MS / 1000}
          max={MAX_BOOT_TIMEOUT_MS / 1000}
          step={1}
          value={seconds}
          onChange={(event) => setTimeoutDraft(event.target.value)}
          onBlur={commitTimeout}
          onKeyDown={(event) => {
            if (event.key === "Enter") commitTimeout();
          }}
        />
      </div>
      <GitSettingsSection runtime={runtime} onProblem={onProblem} />
      <GitHubSettingsSection runtime={runtime} onProblem={onProblem} />
    </section>
  );
}
