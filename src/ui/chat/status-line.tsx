// What the agent is doing right now: working, or waiting to retry with a live countdown.
import { useEffect, useState } from "react";
import type { SessionStatus } from "./agent-port";

/** "Retrying in 4s (attempt 2)" — the wording the spec asks for. */
export function retryText(status: Extract<SessionStatus, { type: "retry" }>, now: number): string {
  const seconds = Math.max(0, Math.ceil((status.nextAt - now) / 1000));
  return `Retrying in ${seconds}s (attempt ${status.attempt})`;
}

/** "Working… no reply from the model for 23 s" — shown once the stream has been silent a while. */
export function waitingText(waitingSince: number, now: number): string {
  return `Working… no data from the model for ${Math.max(0, Math.floor((now - waitingSince) / 1000))} s`;
}

export function StatusLine({ status, now = Date.now }: { status: SessionStatus | undefined; now?: () => number }) {
  const [time, setTime] = useState(now);
  const retrying = status?.type === "retry" || (status?.type === "busy" && status.waitingSince !== undefined);
  useEffect(() => {
    if (!retrying) return;
    setTime(now());
    const timer = setInterval(() => setTime(now()), 250);
    return () => clearInterval(timer);
  }, [retrying, now, status]);
  if (!status || status.type === "idle") return null;
  if (status.type === "busy" && status.waitingSince !== undefined) {
    return (
      <p className="status-line status-waiting" role="status">
        <span className="status-spinner" aria-hidden="true" /> {waitingText(status.waitingSince, time)}
      </p>
    );
  }
  if (status.type === "busy") {
    return (
      <p className="status-line" role="status">
        <span className="status-spinner" aria-hidden="true" /> Working…
      </p>
    );
  }
  return (
    <div className="status-line status-retry" role="status">
      <p>{retryText(status, time)}</p>
      <p className="status-retry-reason">{status.message}</p>
    </div>
  );
}
