// The banner under the top bar when the browser runtime stands in for WebContainer: why, and what
// is unavailable. Dismissible; it comes back with the next workspace or reload.
import { useState } from "react";
import { describeFallback, type FallbackReason } from "../../runtime";
import { Icon } from "../common";

export function RuntimeNotice({ fallback, failure }: { fallback?: FallbackReason; failure?: string }) {
  const [dismissed, setDismissed] = useState(false);
  if (dismissed || (!fallback && !failure)) return null;
  if (failure) {
    return (
      <div className="runtime-notice runtime-notice-error" role="alert">
        <Icon name="error" />
        <p>{failure}</p>
      </div>
    );
  }
  const description = describeFallback(fallback!);
  const unavailable = Array.isArray(description.unavailable) ? description.unavailable.join(", ") : String(description.unavailable ?? "");
  return (
    <div className="runtime-notice" role="status" aria-label="Runtime notice">
      <Icon name="info" />
      <p>
        <strong>{description.title}</strong> {description.detail}
        {unavailable && <span className="runtime-notice-missing"> Unavailable here: {unavailable}.</span>}
      </p>
      <button type="button" className="icon-button" aria-label="Dismiss runtime notice" onClick={() => setDismissed(true)}>
        <Icon name="close" />
      </button>
    </div>
  );
}
