// The "Key protection" part of the Settings dialog: keep the provider keys as typed, or seal them
// with a passphrase (asked once per page load when a key is first needed), and what each protects
// against, in plain words.
import { useId, useState, type FormEvent } from "react";
import { useStore } from "zustand";
import type { ProviderSettings } from "./provider-settings";

export function KeyProtectionSection({ settings, onProblem }: { settings: ProviderSettings; onProblem(action: () => Promise<void>): void }) {
  const { keys } = useStore(settings.store);
  const baseId = useId();
  const [passphrase, setPassphrase] = useState("");
  const [repeat, setRepeat] = useState("");
  const [mismatch, setMismatch] = useState(false);

  const submitNew = (event: FormEvent) => {
    event.preventDefault();
    if (passphrase !== repeat) {
      setMismatch(true);
      return;
    }
    setMismatch(false);
    onProblem(async () => {
      await settings.setPassphrase(passphrase);
      setPassphrase("");
      setRepeat("");
    });
  };
  const submitUnlock = (event: FormEvent) => {
    event.preventDefault();
    onProblem(async () => {
      await settings.unlock(passphrase);
      setPassphrase("");
    });
  };

  return (
    <section className="settings-section" aria-labelledby={`${baseId}-title`}>
      <h3 id={`${baseId}-title`}>Key protection</h3>
      <p className="form-hint">The same choice covers the MCP servers' headers and sign-ins (OAuth tokens).</p>
      <ul className="form-hint key-protection-choices">
        <li>
          <strong>Without a passphrase</strong> (the default), keys are stored as typed in this browser's storage for this site. Anyone who can use this browser profile, and
          any program that can read its files, can read them.
        </li>
        <li>
          <strong>With a passphrase</strong>, keys are stored encrypted (AES-GCM, with a key derived from the passphrase by PBKDF2). A copy of the browser's files, a backup
          or a stolen disk does not give them away without the passphrase. You are asked for it once per page load, when a key is first needed. It does not protect against
          anything running in this page or an extension while the keys are unlocked, and a forgotten passphrase cannot be recovered: you would add the keys again.
        </li>
      </ul>
      <p role="status">
        {keys === "plain" ? "Keys are stored without a passphrase." : keys === "locked" ? "Keys are encrypted and locked: enter the passphrase to use them." : "Keys are encrypted with your passphrase, and unlocked for this page load."}
      </p>
      {keys === "locked" ? (
        <form className="form-row form-row-inline" onSubmit={submitUnlock}>
          <label htmlFor={`${baseId}-unlock`}>Passphrase</label>
          <input id={`${baseId}-unlock`} className="text-input" type="password" autoComplete="current-password" value={passphrase} onChange={(e) => setPassphrase(e.target.value)} />
          <button type="submit" className="button" disabled={passphrase === ""}>
            Unlock
          </button>
        </form>
      ) : (
        <form onSubmit={submitNew}>
          <div className="form-row">
            <label htmlFor={`${baseId}-new`}>{keys === "plain" ? "New passphrase" : "Change the passphrase"}</label>
            <input id={`${baseId}-new`} className="text-input" type="password" autoComplete="new-password" value={passphrase} onChange={(e) => setPassphrase(e.target.value)} />
          </div>
          <div className="form-row">
            <label htmlFor={`${baseId}-repeat`}>Repeat the passphrase</label>
            <input
              id={`${baseId}-repeat`}
              className="text-input"
              type="password"
              autoComplete="new-password"
              value={repeat}
              aria-invalid={mismatch ? true : undefined}
              onChange={(e) => setRepeat(e.target.value)}
            />
          </div>
          {mismatch && (
            <p className="input-error" role="alert">
              The two passphrases differ. Type the same one twice.
            </p>
          )}
          <div className="form-row form-row-inline">
            <button type="submit" className="button" disabled={passphrase === ""}>
              {keys === "plain" ? "Encrypt keys with this passphrase" : "Change passphrase"}
            </button>
            {keys === "unlocked" && (
              <button type="button" className="button" onClick={() => onProblem(() => settings.removePassphrase())}>
                Remove passphrase
              </button>
            )}
          </div>
        </form>
      )}
    </section>
  );
}
