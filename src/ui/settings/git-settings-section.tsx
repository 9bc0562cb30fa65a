// Settings → Runtime → Git: the CORS proxy git's clone/fetch/pull/push go through (a web page cannot
// reach git hosts directly) and an access token for one host. Used from the next git command on.
import { useId, useState } from "react";
import { useStore } from "zustand";
import { cleanHost, cleanProxyUrl } from "../../runtime";
import type { RuntimeSettingsStore } from "./runtime-settings-store";
import { TokenRow } from "./token-row";

export function GitSettingsSection({ runtime, onProblem }: { runtime: RuntimeSettingsStore; onProblem(action: () => Promise<void>): void }) {
  const settings = useStore(runtime.store);
  const baseId = useId();
  const [proxyDraft, setProxyDraft] = useState<string | undefined>(undefined);
  const [hostDraft, setHostDraft] = useState<string | undefined>(undefined);
  const proxy = proxyDraft ?? settings.gitCorsProxy;
  const host = hostDraft ?? settings.gitTokenHost;
  const proxyProblem = proxy.trim() !== "" && cleanProxyUrl(proxy) === "" ? "Enter an http:// or https:// URL." : undefined;
  const hostProblem = host.trim() !== "" && cleanHost(host) === "" ? "Enter a host name such as github.com." : undefined;
  return (
    <fieldset className="settings-subsection">
      <legend>Git</legend>
      <p className="form-hint">
        git clone, fetch, pull and push reach HTTPS remotes through a CORS proxy, because git hosts do not answer requests from web pages. The proxy sees
        what you clone and push (and the token below): use one you trust or run your own (for example @isomorphic-git/cors-proxy). Applies from the next git
        command.
      </p>
      <div className="form-row">
        <label htmlFor={`${baseId}-proxy`} className="form-label">
          CORS proxy URL
        </label>
        <div className="form-row-inline">
          <input
            id={`${baseId}-proxy`}
            className="text-input"
            type="url"
            spellCheck={false}
            placeholder="None: clone, fetch, pull and push are off"
            value={proxy}
            aria-invalid={proxyProblem !== undefined}
            aria-describedby={proxyProblem ? `${baseId}-proxy-problem` : undefined}
            onChange={(event) => setProxyDraft(event.target.value)}
          />
          <button
            type="button"
            className="button"
            disabled={proxyDraft === undefined || proxyProblem !== undefined}
            onClick={() =>
              onProblem(async () => {
                await runtime.update({ gitCorsProxy: cleanProxyUrl(proxy) });
                setProxyDraft(undefined);
              })
            }
          >
            Set proxy
          </button>
        </div>
        {proxyProblem && (
          <p id={`${baseId}-proxy-problem`} className="input-error" role="alert">
            {proxyProblem}
          </p>
        )}
      </div>
      <TokenRow
        id={`${baseId}-token`}
        label="Access token"
        saved={settings.gitAccessToken}
        setLabel="Set token"
        removeLabel="Remove token"
        save={(token) => runtime.update({ gitAccessToken: token })}
        run={onProblem}
      />
      <div className="form-row">
        <label htmlFor={`${baseId}-host`} className="form-label">
          Send the token only to
        </label>
        <div className="form-row-inline">
          <input
            id={`${baseId}-host`}
            className="text-input"
            spellCheck={false}
            value={host}
            aria-invalid={hostProblem !== undefined}
            onChange={(event) => setHostDraft(event.target.value)}
            onBlur={() => {
              if (hostDraft === undefined || hostProblem) return;
              onProblem(async () => {
                await runtime.update({ gitTokenHost: cleanHost(host) });
                setHostDraft(undefined);
              });
            }}
          />
        </div>
        <p className="form-hint">
          {hostProblem ??
            "The token is sent as the password over HTTPS to this host only. Kept only in this browser's storage for this site; never exported or shared."}
        </p>
      </div>
    </fieldset>
  );
}
