// Settings → Runtime → Git: the CORS proxy git's clone/fetch/pull/push go through (a web page cannot
// reach git hosts directly) and an access token for one host. Used from the next git command on.
import { useId, useState } from "react";
import { useStore } from "zustand";
import { cleanHost, cleanProxyUrl } from "../../runtime";
import type { RuntimeSettingsStore } from "./runtime-settings-store";
import { TokenRow } from "./token-row";
import { UrlRow } from "./url-row";

export function GitSettingsSection({ runtime, onProblem }: { runtime: RuntimeSettingsStore; onProblem(action: () => Promise<void>): void }) {
  const settings = useStore(runtime.store);
  const baseId = useId();
  const [hostDraft, setHostDraft] = useState<string | undefined>(undefined);
  const host = hostDraft ?? settings.gitTokenHost;
  const hostProblem = host.trim() !== "" && cleanHost(host) === "" ? "Enter a host name such as github.com." : undefined;
  return (
    <fieldset className="settings-subsection">
      <legend>Git</legend>
      <p className="form-hint">
        git clone, fetch, pull and push reach HTTPS remotes through a CORS proxy, because git hosts do not answer requests from web pages. The proxy sees
        what you clone and push (and the token below): use one you trust or run your own (for example @isomorphic-git/cors-proxy). Applies from the next git
        command.
      </p>
      <UrlRow
        id={`${baseId}-proxy`}
        label="CORS proxy URL"
        placeholder="None: clone, fetch, pull and push are off"
        saved={settings.gitCorsProxy}
        clean={cleanProxyUrl}
        invalid="Enter an http:// or https:// URL."
        setLabel="Set proxy"
        save={(url) => runtime.update({ gitCorsProxy: url })}
        run={onProblem}
      />
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
