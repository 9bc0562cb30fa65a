// What the agent is doing right now: working, or waiting to retry with a live countdown.
import { useEffect, useState } from "react";
import type { SessionStatus } from "./agent-port";

/** "Retrying in 4s (attempt 2)" — the wording the spec asks for. */
export function retryText(status: Extract<SessionStatus, { type: "retry" }>, now: number): string {
  const seconds = Math.max(0, Math.ceil((status.nextAt - now) / 1000));
  return `Retrying in ${seconds}s (attempt ${status.attempt})`;
}

export function StatusLine({ status, now = Date.now }: { status: SessionStatus | undefined; now?: () => number }) {
  const [time, setTime] = useState(now);
  const retrying = status?.type === "retry";
  useEffect(() => {
    if (!retrying) return;
    setTime(now());
    const timer = setInterval(() => setTime(now()), 250);
    return () => clearInterval(timer);
  }, [retrying, now, status]);
  if (!status || status.type === "idle") return null;
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
